// Core's signatures agree with implementations that share no code with it: the openssl CLI, and
// HMAC written out here from RFC 2104 over a bare SHA-256. Bodies are random bytes (almost never
// valid UTF-8) and some are long; secrets are arbitrary Unicode.
import { spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { hmacEngine, signWebhook, verifyWebhook, webCryptoHmac } from '@ringhook/core/signature'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { observe } from './observations.js'

const BLOCK = 64

/** HMAC-SHA256 by the book (RFC 2104): H((K ^ opad) || H((K ^ ipad) || m)). */
function referenceHmac(secret: string, message: Uint8Array): string {
  let key: Uint8Array = Buffer.from(secret, 'utf8')
  if (key.length > BLOCK) key = createHash('sha256').update(key).digest()
  const padded = new Uint8Array(BLOCK)
  padded.set(key)
  const inner = createHash('sha256')
    .update(padded.map((b) => b ^ 0x36))
    .update(message)
    .digest()
  return createHash('sha256')
    .update(padded.map((b) => b ^ 0x5c))
    .update(inner)
    .digest('hex')
}

const signedMessage = (timestamp: string, body: Uint8Array) => Buffer.concat([Buffer.from(`${timestamp}.`), body])

function opensslHmac(secret: string, message: Uint8Array): string {
  const run = spawnSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: message, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr || run.error}`)
  // "HMAC-SHA2-256(stdin)= <hex>" or "SHA2-256(stdin)= <hex>", depending on the version.
  const hex = run.stdout.trim().split(/\s+/).pop() ?? ''
  expect(hex).toMatch(/^[0-9a-f]{64}$/)
  return hex
}

// A secret the openssl command line can carry: no NUL, not empty.
const secretArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).filter((s) => !s.includes('\0'))
const timestampArb = fc.integer({ min: 0, max: 99_999_999_999 }).map(String)
const bodyArb = fc.uint8Array({ maxLength: 4096 })

const isUtf8 = (bytes: Uint8Array) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

describe('signature agreement with independent implementations', () => {
  it('openssl dgst -sha256 -hmac agrees with both engines on random secrets and bodies', async ({ task }) => {
    expect(spawnSync('openssl', ['version']).status, 'the openssl CLI is needed here').toBe(0)
    let runs = 0
    let invalidUtf8 = 0
    await fc.assert(
      fc.asyncProperty(secretArb, timestampArb, bodyArb, async (secret, timestamp, body) => {
        const expected = opensslHmac(secret, signedMessage(timestamp, body))
        expect(Buffer.from(await hmacEngine().digest(secret, timestamp, body)).toString('hex')).toBe(expected)
        expect(Buffer.from(await webCryptoHmac.digest(secret, timestamp, body)).toString('hex')).toBe(expected)
        runs++
        if (!isUtf8(body)) invalidUtf8++
      }),
      { numRuns: 60 },
    )
    expect(invalidUtf8).toBeGreaterThan(0)
    observe(
      {
        table: 'inputs',
        row: 'Signatures vs `openssl dgst -sha256 -hmac` (random Unicode secrets, random bytes up to 4 KiB)',
        column: 'result',
        value: `agree on ${runs}/${runs} (${invalidUtf8} bodies invalid UTF-8), node:crypto and Web Crypto engines`,
      },
      task,
    )
  })

  it('an RFC 2104 HMAC written here agrees with sign and verify, and a flipped bit is rejected', async ({ task }) => {
    const now = () => 1_800_000_000_000
    let runs = 0
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        bodyArb,
        fc.integer({ min: -300, max: 300 }),
        fc.nat(),
        async (secret, body, age, bit) => {
          const timestamp = 1_800_000_000 - age
          const { signature } = await signWebhook({ secret, body, timestamp })
          expect(signature).toBe(`sha256=${referenceHmac(secret, signedMessage(String(timestamp), body))}`)
          const ok = await verifyWebhook({ rawBody: body, signature, timestamp: String(timestamp), secret, now })
          expect(ok.ok).toBe(true)
          const webOk = await verifyWebhook({
            rawBody: body,
            signature,
            timestamp: String(timestamp),
            secret,
            now,
            engine: webCryptoHmac,
          })
          expect(webOk.ok).toBe(true)
          if (body.length > 0) {
            const tampered = Uint8Array.from(body)
            const index = bit % (body.length * 8)
            tampered[index >> 3] = (tampered[index >> 3] as number) ^ (1 << (index & 7))
            const bad = await verifyWebhook({ rawBody: tampered, signature, timestamp: String(timestamp), secret, now })
            expect(bad).toMatchObject({ ok: false, reason: 'signature_mismatch' })
          }
          runs++
        },
      ),
      { numRuns: 300 },
    )
    observe(
      {
        table: 'inputs',
        row: 'Signatures vs an RFC 2104 HMAC written in the test; one flipped bit',
        column: 'result',
        value: `agree on ${runs}/${runs}; every flipped bit rejected (signature_mismatch)`,
      },
      task,
    )
  })

  it('agrees on long bodies (1 MiB and 8 MiB of random bytes)', async ({ task }) => {
    for (const size of [1 << 20, 8 << 20]) {
      const body = randomBytes(size)
      const expected = opensslHmac('whsec_long', signedMessage('1800000000', body))
      expect(referenceHmac('whsec_long', signedMessage('1800000000', body))).toBe(expected)
      expect(Buffer.from(await hmacEngine().digest('whsec_long', '1800000000', body)).toString('hex')).toBe(expected)
      expect(Buffer.from(await webCryptoHmac.digest('whsec_long', '1800000000', body)).toString('hex')).toBe(expected)
    }
    observe(
      {
        table: 'inputs',
        row: 'Signatures over 1 MiB and 8 MiB random bodies',
        column: 'result',
        value: 'openssl, RFC 2104 reference, node:crypto and Web Crypto all agree',
      },
      task,
    )
  })

  it("the engines' constant-time comparison agrees with plain equality", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(31), fc.boolean(), (a, i, flip) => {
        const b = Uint8Array.from(a)
        if (flip) b[i] = (b[i] as number) ^ 0xff
        for (const engine of [hmacEngine(), webCryptoHmac]) {
          expect(engine.equal(a, b)).toBe(!flip)
          expect(engine.equal(a, b.subarray(1))).toBe(false)
        }
      }),
      { numRuns: 200 },
    )
  })
})
