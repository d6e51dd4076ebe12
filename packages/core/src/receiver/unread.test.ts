import { describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.js'
import type { BodyResult } from './body.js'
import { createReceiver } from './create-receiver.js'
import { readsBody } from './unread.js'

const METHODS = ['POST', 'post', 'GET', 'PUT']
const LENGTHS = [undefined, '10', '1024', '1025', 'abc']
const TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/cloudevents+json',
  'APPLICATION/JSON',
  'text/plain',
]

const cases = METHODS.flatMap((method) =>
  LENGTHS.flatMap((length) =>
    TYPES.flatMap((type) =>
      [true, false].map((requireJsonContentType) => ({ method, length, type, requireJsonContentType })),
    ),
  ),
)

describe('readsBody', () => {
  // An adapter reading ahead must read exactly the bodies the pipeline reads: every combination of
  // method, declared length and content type, with and without requireJsonContentType.
  it('reads exactly the bodies the pipeline reads', async () => {
    for (const { method, length, type, requireJsonContentType } of cases) {
      const receiver = createReceiver({ secret: 's', logger: silentLogger, maxBodyBytes: 1024, requireJsonContentType })
      const headers: Record<string, string> = {}
      if (length !== undefined) headers['content-length'] = length
      if (type !== undefined) headers['content-type'] = type
      let read = false
      const rawBody = {
        readBody(): BodyResult {
          read = true
          return { ok: true, bytes: new Uint8Array(0) }
        },
      }
      const response = await receiver.handle({ method, headers, rawBody })
      const label = `${method} length=${length} type=${type} requireJson=${requireJsonContentType}`
      expect(readsBody(receiver.options, method, headers), label).toBe(read)
      if (!read) expect([405, 413, 415], label).toContain(response.status)
    }
    expect(cases).toHaveLength(240)
  })
})
