import { describe, expect, it } from 'vitest'
import { webCryptoHmac } from '../crypto/hmac.js'
import { RinghookConfigError } from '../errors.js'
import { signWebhook } from './sign.js'
import { verifyWebhook } from './verify.js'

const secret = 'whsec_unit'
const now = () => 1_800_000_000_000
const body = '{"event":"gesture","note":"héllo 👋"}'

async function signed(options: { timestamp?: number; secret?: string; body?: string } = {}) {
  const { signature, timestamp } = await signWebhook({
    secret: options.secret ?? secret,
    body: options.body ?? body,
    timestamp: options.timestamp ?? 1_800_000_000,
  })
  return { signature, timestamp }
}

describe('signWebhook', () => {
  it('signs "timestamp.body" as sha256= and lowercase hex', async () => {
    // Reference value computed with: printf '1700000000.{}' | openssl dgst -sha256 -hmac secret
    const { signature, headers } = await signWebhook({ secret: 'secret', body: '{}', timestamp: 1_700_000_000 })
    expect(signature).toBe('sha256=b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163')
    expect(headers).toMatchObject({ 'x-service-timestamp': '1700000000', 'content-type': 'application/json' })
  })

  it('gives the same digest for a string and its UTF-8 bytes', async () => {
    const fromText = await signWebhook({ secret, body, timestamp: 1 })
    const fromBytes = await signWebhook({ secret, body: new TextEncoder().encode(body), timestamp: 1 })
    expect(fromBytes.signature).toBe(fromText.signature)
  })
})

describe('verifyWebhook', () => {
  it('accepts a valid signature over text or bytes', async () => {
    const { signature, timestamp } = await signed()
    expect(await verifyWebhook({ rawBody: body, signature, timestamp, secret, now })).toEqual({
      ok: true,
      timestamp: 1_800_000_000,
      secretIndex: 0,
    })
    const bytes = new TextEncoder().encode(body)
    expect((await verifyWebhook({ rawBody: bytes, signature, timestamp, secret, now })).ok).toBe(true)
  })

  it('agrees with the Web Crypto engine', async () => {
    const { signature, timestamp } = await signed()
    const result = await verifyWebhook({ rawBody: body, signature, timestamp, secret, now, engine: webCryptoHmac })
    expect(result.ok).toBe(true)
  })

  it('accepts uppercase hex and reports which rotated secret matched', async () => {
    const { signature, timestamp } = await signed({ secret: 'old' })
    const upper = `sha256=${signature.slice(7).toUpperCase()}`
    const result = await verifyWebhook({ rawBody: body, signature: upper, timestamp, secret: ['new', 'old'], now })
    expect(result).toMatchObject({ ok: true, secretIndex: 1 })
  })

  it.each([
    ['missing_signature', { signature: undefined }],
    ['missing_signature', { signature: '' }],
    ['malformed_signature', { signature: 'sha1=abc' }],
    ['malformed_signature', { signature: `sha256=${'a'.repeat(63)}` }],
    ['malformed_signature', { signature: `sha256=${'a'.repeat(64)}, sha256=${'b'.repeat(64)}` }],
    ['malformed_signature', { signature: `sha256=${'g'.repeat(64)}` }],
    ['malformed_signature', { signature: `sha256=${'a'.repeat(63)} ` }],
    ['missing_timestamp', { timestamp: null }],
    ['malformed_timestamp', { timestamp: '1.5' }],
    ['malformed_timestamp', { timestamp: '-10' }],
    ['malformed_timestamp', { timestamp: '2026-11-22T10:00:00Z' }],
  ] as const)('rejects with %s', async (reason, override) => {
    const valid = await signed()
    const result = await verifyWebhook({ rawBody: body, secret, now, ...valid, ...override })
    expect(result).toMatchObject({ ok: false, reason })
  })

  it('rejects a wrong secret with a message naming the likely causes', async () => {
    const valid = await signed({ secret: 'other' })
    const result = await verifyWebhook({ rawBody: body, secret: ' whsec_unit ', now, ...valid })
    expect(result).toMatchObject({ ok: false, reason: 'signature_mismatch' })
    if (!result.ok) {
      expect(result.message).toMatch(/re-serialised/)
      expect(result.message).toMatch(/whitespace/)
      expect(result.message).not.toContain('whsec_unit')
    }
  })

  it('rejects a body changed by one byte', async () => {
    const valid = await signed()
    expect((await verifyWebhook({ rawBody: `${body} `, secret, now, ...valid })).ok).toBe(false)
  })

  it.each([
    [300, 300, true],
    [300, 301, false],
    [300, -300, true],
    [300, -301, false],
    [0, 0, true],
    [0, 1, false],
    [0, -1, false],
  ])('with tolerance %i s, a timestamp %i s old is accepted: %s', async (tolerance, age, ok) => {
    const valid = await signed({ timestamp: 1_800_000_000 - age })
    const result = await verifyWebhook({ rawBody: body, secret, now, toleranceSeconds: tolerance, ...valid })
    expect(result.ok).toBe(ok)
    if (!result.ok) expect(result.reason).toBe(age > 0 ? 'timestamp_too_old' : 'timestamp_in_future')
  })

  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY])(
    'refuses tolerance %s instead of disabling the check',
    async (t) => {
      const valid = await signed()
      await expect(verifyWebhook({ rawBody: body, secret, now, toleranceSeconds: t, ...valid })).rejects.toThrow(
        RinghookConfigError,
      )
    },
  )

  it('rejects when no secret is configured', async () => {
    const valid = await signed()
    expect(await verifyWebhook({ rawBody: body, secret: [], now, ...valid })).toMatchObject({ reason: 'no_secret' })
    expect(await verifyWebhook({ rawBody: body, secret: '', now, ...valid })).toMatchObject({ reason: 'no_secret' })
  })
})
