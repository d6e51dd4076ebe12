import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hmacEngine, webCryptoHmac } from './hmac.js'

const reference = (secret: string, timestamp: string, body: Uint8Array) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('the node:crypto HMAC engine', () => {
  const engine = hmacEngine()

  it('is the engine Node gets, with a synchronous hex digest', () => {
    expect(engine.name).toBe('node')
    expect(engine.hexSync).toBeTypeOf('function')
  })

  it('agrees with createHmac for any secret (short, block-sized, longer than a block, non-ASCII), timestamp and body', () => {
    const secret = fc.oneof(
      fc.string({ minLength: 1, maxLength: 80 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      fc.constantFrom('k'.repeat(63), 'k'.repeat(64), 'k'.repeat(65), 'é'.repeat(40)),
    )
    const timestamp = fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }).map(String), fc.string({ maxLength: 12 }))
    fc.assert(
      fc.property(secret, timestamp, fc.uint8Array({ maxLength: 2048 }), (key, ts, body) => {
        expect(engine.hexSync?.(key, ts, body)).toBe(reference(key, ts, body))
      }),
      { numRuns: 500 },
    )
  })

  it('keeps each secret apart when many are in use (the pad cache refills past its bound)', () => {
    const body = new TextEncoder().encode('{"event":"gesture"}')
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 150; i++) {
        expect(engine.hexSync?.(`secret-${i}`, '1700000000', body)).toBe(reference(`secret-${i}`, '1700000000', body))
      }
    }
  })

  it('gives the same digest through its async API and through Web Crypto', async () => {
    const body = new TextEncoder().encode('{"emoji":"👍"}')
    const expected = reference('whsec_x', '1700000000', body)
    expect(hex(await engine.digest('whsec_x', '1700000000', body))).toBe(expected)
    expect(hex(await webCryptoHmac.digest('whsec_x', '1700000000', body))).toBe(expected)
  })
})
