import { describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.js'
import type { BodyResult } from './body.js'
import { createReceiver } from './create-receiver.js'
import { readsBody } from './unread.js'

const options = { maxBodyBytes: 1024, requireJsonContentType: true }
const json = { 'content-type': 'application/json; charset=utf-8', 'content-length': '1024' }

describe('readsBody', () => {
  it('reads a POST in JSON whose declared length fits, in any case of method and type', () => {
    expect(readsBody(options, 'POST', json)).toBe(true)
    expect(readsBody(options, 'post', { 'content-type': 'APPLICATION/JSON' })).toBe(true)
    expect(readsBody(options, 'POST', { 'content-type': 'application/cloudevents+json' })).toBe(true)
  })

  it('reads nothing the head alone refuses: another method, a length over the limit, another type', () => {
    expect(readsBody(options, 'GET', json)).toBe(false)
    expect(readsBody(options, 'POST', { ...json, 'content-length': '1025' })).toBe(false)
    expect(readsBody(options, 'POST', { 'content-type': 'text/plain' })).toBe(false)
    expect(readsBody({ ...options, requireJsonContentType: false }, 'POST', { 'content-type': 'text/plain' })).toBe(
      true,
    )
  })

  it('is what the receiver does: the body of a refused request is never read', async () => {
    const receiver = createReceiver({ secret: 's', logger: silentLogger, ...options })
    for (const [method, headers, status] of [
      ['GET', json, 405],
      ['POST', { ...json, 'content-length': '1025' }, 413],
      ['POST', { 'content-type': 'text/plain' }, 415],
    ] as const) {
      let read = false
      const rawBody = {
        readBody(): BodyResult {
          read = true
          return { ok: true, bytes: new Uint8Array(0) }
        },
      }
      expect(readsBody(receiver.options, method, headers)).toBe(false)
      expect((await receiver.handle({ method, headers, rawBody })).status).toBe(status)
      expect(read).toBe(false)
    }
  })
})
