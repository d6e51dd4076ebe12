import { describe, expect, it } from 'vitest'
import { readBody } from './body.js'

const chunk = (text: string) => new TextEncoder().encode(text)

describe('readBody', () => {
  it('answers body_incomplete when the stream fails mid-body (the sender hung up)', async () => {
    async function* hangsUp() {
      yield chunk('{"event":')
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
    }
    expect(await readBody(hangsUp(), 1024, 1000)).toEqual({ ok: false, code: 'body_incomplete' })
  })

  it('bounds the whole body by the timeout, not the gap between chunks', async () => {
    async function* trickles() {
      for (let i = 0; i < 20; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        yield chunk('x')
      }
    }
    // Every gap (20 ms) is well under the 150 ms timeout; the whole body (400 ms) is not.
    expect(await readBody(trickles(), 1024, 150)).toEqual({ ok: false, code: 'body_timeout' })
  })
})
