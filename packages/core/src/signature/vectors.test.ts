// The published signed test vectors (@ringhook/schemas, vectors/signatures.json) are ringhook's own:
// its verifier must agree with every case, with either HMAC engine, and its signer must reproduce
// every valid signature. The vectors are computed apart from this code, so neither can drift.
import vectors from '@ringhook/schemas/vectors/signatures.json' with { type: 'json' }
import { describe, expect, it } from 'vitest'
import { type HmacEngine, hmacEngine, webCryptoHmac } from '../crypto/hmac.js'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './headers.js'
import { signWebhook } from './sign.js'
import { DEFAULT_TOLERANCE_SECONDS, verifyWebhook } from './verify.js'

const cases = vectors.cases

describe('the published signature vectors', () => {
  it('use the scheme this code implements', () => {
    expect(vectors.tolerance_seconds).toBe(DEFAULT_TOLERANCE_SECONDS)
    expect(vectors.scheme.signature_header.toLowerCase()).toBe(SIGNATURE_HEADER)
    expect(vectors.scheme.timestamp_header.toLowerCase()).toBe(TIMESTAMP_HEADER)
    expect(cases.filter((c) => c.valid).length).toBeGreaterThan(5)
    expect(cases.filter((c) => !c.valid).length).toBeGreaterThan(10)
  })

  describe.each([
    ['node:crypto or the runtime default', hmacEngine()],
    ['Web Crypto', webCryptoHmac],
  ] as [string, HmacEngine][])('verifyWebhook with %s', (_, engine) => {
    it.each(cases)('$name: valid $valid', async (vector) => {
      const result = await verifyWebhook({
        rawBody: vector.body,
        signature: vector.signature,
        timestamp: vector.timestamp,
        secret: vector.secrets,
        toleranceSeconds: vectors.tolerance_seconds,
        now: () => vector.now * 1000,
        engine,
      })
      expect(result.ok, vector.reason).toBe(vector.valid)
      if (!result.ok) expect(result.reason).toBe(vector.ringhook_reason)
      else expect(vector.secrets[result.secretIndex]).toBe(vector.signed_with)
    })
  })

  it.each(cases.filter((c) => c.valid))('signWebhook reproduces "$name"', async (vector) => {
    const signed = await signWebhook({
      secret: vector.signed_with as string,
      body: vector.body,
      timestamp: Number(vector.timestamp),
    })
    expect(signed.signature).toBe(vector.signature)
    expect(signed.timestamp).toBe(vector.timestamp)
  })
})
