import { toBytes, toHex } from '../crypto/bytes.js'
import { hmacEngine } from '../crypto/hmac.js'
import { SIGNATURE_HEADER, SIGNATURE_PREFIX, TIMESTAMP_HEADER } from './headers.js'

/** What {@link signWebhook} signs, with which secret, at what time. */
export interface SignOptions {
  /** The app's webhook secret. */
  secret: string
  /** The exact bytes (or UTF-8 text) that will be sent as the body. */
  body: string | Uint8Array
  /** Unix time in seconds; defaults to now. */
  timestamp?: number
}

/** A signature and the headers that carry it. */
export interface SignedHeaders {
  /** `sha256=` followed by lowercase hex. */
  signature: string
  /** Unix seconds, as sent in the timestamp header. */
  timestamp: string
  /** Ready-to-send request headers, lowercase names. */
  headers: Record<string, string>
}

/**
 * Signs a webhook body the way the service does: HMAC-SHA256 over `${timestamp}.${body}`.
 *
 * @example
 * const { headers } = await signWebhook({ secret, body: JSON.stringify(payload) })
 * await fetch(url, { method: 'POST', headers, body: JSON.stringify(payload) })
 */
export async function signWebhook(options: SignOptions): Promise<SignedHeaders> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000))
  const digest = await hmacEngine().digest(options.secret, timestamp, toBytes(options.body))
  const signature = SIGNATURE_PREFIX + toHex(digest)
  return {
    signature,
    timestamp,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signature,
      [TIMESTAMP_HEADER]: timestamp,
    },
  }
}
