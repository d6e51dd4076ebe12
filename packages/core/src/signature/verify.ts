import { type Awaitable, isThenable } from '../awaitable.js'
import { constantTimeEqualHex, fromHex, isHex, toBytes } from '../crypto/bytes.js'
import { type HmacEngine, hmacEngine } from '../crypto/hmac.js'
import { RinghookConfigError } from '../errors.js'
import { SIGNATURE_PREFIX } from './headers.js'

/** Why a webhook failed verification; stable, safe to switch on. */
export type VerifyFailureReason =
  | 'missing_signature'
  | 'malformed_signature'
  | 'missing_timestamp'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'no_secret'
  | 'signature_mismatch'

/** What {@link verifyWebhook} found: a valid signature and its details, or why there is none. */
export type VerifyResult =
  | {
      /** The signature matched, within the tolerance. */
      ok: true
      /** The signed timestamp, Unix seconds. */
      timestamp: number
      /** Which secret matched (0 is the first). */
      secretIndex: number
    }
  | {
      /** The request is not authentic, or cannot be shown to be. */
      ok: false
      /** Why, as a stable code. */
      reason: VerifyFailureReason
      /** Why, in words for the log; never for the sender. */
      message: string
    }

/** What {@link verifyWebhook} checks, against which secrets and clock. */
export interface VerifyOptions {
  /** The body exactly as received: bytes, or the untouched UTF-8 text. */
  rawBody: string | Uint8Array
  /** Value of the signature header (`sha256=<hex>`). */
  signature: string | null | undefined
  /** Value of the timestamp header (Unix seconds). */
  timestamp: string | null | undefined
  /** The active secret, or several during a rotation: any one may match. */
  secret: string | readonly string[]
  /** Allowed clock difference in seconds, either direction. Default 300; 0 means "same second". */
  toleranceSeconds?: number
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
  /** @internal engine override for tests and benchmarks. */
  engine?: HmacEngine
}

/** The service's tolerance for the signed timestamp: 300 s either way. */
export const DEFAULT_TOLERANCE_SECONDS = 300
// `sha256=` and 64 hex digits; the digits themselves are checked as they are decoded.
const SIGNATURE_LENGTH = SIGNATURE_PREFIX.length + 64
const TIMESTAMP_PATTERN = /^\d{1,12}$/

/** Throws {@link RinghookConfigError} on a tolerance that would weaken the check instead of configuring it. */
export function assertTolerance(seconds: number): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new RinghookConfigError(`toleranceSeconds must be a finite number >= 0, got ${String(seconds)}`)
  }
  return seconds
}

const fail = (reason: VerifyFailureReason, message: string): VerifyResult => ({ ok: false, reason, message })

/**
 * Verifies a webhook's signature and timestamp. Never throws on bad input: it returns
 * `{ ok: false, reason, message }`, where `message` names the likely cause for your logs.
 *
 * @example
 * const result = await verifyWebhook({ rawBody, signature, timestamp, secret })
 * if (!result.ok) console.warn(result.reason, result.message) // then answer 401
 */
export async function verifyWebhook(options: VerifyOptions): Promise<VerifyResult> {
  return verifyNow(options)
}

const MALFORMED_SIGNATURE = 'The signature header is not `sha256=` followed by 64 hex digits (sent twice?).'

/**
 * {@link verifyWebhook} without the promise where the runtime computes HMACs synchronously
 * (node:crypto), so the receiver's pipeline can stay synchronous. Throws only on a bad tolerance.
 * @internal
 */
export function verifyNow(options: VerifyOptions): Awaitable<VerifyResult> {
  const tolerance = assertTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)
  const { signature, timestamp } = options
  if (!signature) return fail('missing_signature', 'The signature header is missing.')
  const hex = signature.slice(SIGNATURE_PREFIX.length)
  if (signature.length !== SIGNATURE_LENGTH || !signature.startsWith(SIGNATURE_PREFIX) || !isHex(hex)) {
    return fail('malformed_signature', MALFORMED_SIGNATURE)
  }
  if (!timestamp) return fail('missing_timestamp', 'The timestamp header is missing.')
  if (!TIMESTAMP_PATTERN.test(timestamp)) {
    return fail('malformed_timestamp', 'The timestamp header is not Unix time in whole seconds.')
  }
  const sentAt = Number(timestamp)
  const skew = checkSkew(sentAt, options.now ?? Date.now, tolerance)
  if (skew) return skew
  if (!usableSecret(options.secret))
    return fail('no_secret', 'No webhook secret is configured (empty secret or empty list).')
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret
  const index = matchingSecret(options.engine ?? hmacEngine(), secrets, timestamp, toBytes(options.rawBody), hex)
  // No closure unless the engine made us wait (Web Crypto).
  if (isThenable(index)) return index.then((found) => verdict(found, sentAt, secrets))
  return verdict(index, sentAt, secrets)
}

const verdict = (index: number, sentAt: number, secrets: readonly string[]): VerifyResult =>
  index < 0 ? fail('signature_mismatch', mismatchHint(secrets)) : { ok: true, timestamp: sentAt, secretIndex: index }

/**
 * A secret that can check a signature: a non-empty string, or a non-empty list of them.
 * @internal
 */
export function usableSecret(secret: unknown): secret is string | readonly string[] {
  if (typeof secret === 'string') return secret.length > 0
  if (!Array.isArray(secret) || secret.length === 0) return false
  for (const one of secret) if (typeof one !== 'string' || one.length === 0) return false
  return true
}

function checkSkew(sentAt: number, now: () => number, tolerance: number): VerifyResult | undefined {
  const diff = Math.floor(now() / 1000) - sentAt
  if (diff > tolerance) {
    return fail(
      'timestamp_too_old',
      `The timestamp is ${diff}s in the past (tolerance ${tolerance}s): a replayed request, or this server's clock is ahead. Check NTP.`,
    )
  }
  if (-diff > tolerance) {
    return fail(
      'timestamp_in_future',
      `The timestamp is ${-diff}s in the future (tolerance ${tolerance}s): this server's clock is probably behind. Check NTP.`,
    )
  }
  return undefined
}

function matchingSecret(
  engine: HmacEngine,
  secrets: readonly string[],
  timestamp: string,
  body: Uint8Array,
  hex: string,
): Awaitable<number> {
  const { hexSync } = engine
  if (!hexSync) return matchingSecretAsync(engine, secrets, timestamp, body, fromHex(hex) as Uint8Array)
  // Stopping at the first match reveals only which secret matched, to a sender who already has it.
  for (let i = 0; i < secrets.length; i++) {
    if (constantTimeEqualHex(hex, hexSync(secrets[i] as string, timestamp, body))) return i
  }
  return -1
}

async function matchingSecretAsync(
  engine: HmacEngine,
  secrets: readonly string[],
  timestamp: string,
  body: Uint8Array,
  expected: Uint8Array,
): Promise<number> {
  for (let i = 0; i < secrets.length; i++) {
    if (engine.equal(await engine.digest(secrets[i] as string, timestamp, body), expected)) return i
  }
  return -1
}

function mismatchHint(secrets: readonly string[]): string {
  const spaced = secrets.some((s) => s !== s.trim()) ? ' One configured secret has leading or trailing whitespace.' : ''
  return (
    `No configured secret (${secrets.length} active) produces this signature. Likely causes: the body was parsed and ` +
    're-serialised before verification (verify the raw bytes exactly as received); the secret is wrong or was ' +
    'regenerated when the webhook URL changed (keep old and new secrets active during a rotation).' +
    spaced
  )
}
