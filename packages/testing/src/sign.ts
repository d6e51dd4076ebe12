import { signWebhook as signBody } from '@ringhook/core/signature'

/** What {@link signEvent} signs, with which secret, at what time. */
export interface SignEventOptions {
  /** The app's webhook secret. */
  secret: string
  /** The webhook payload: an object (serialised with `JSON.stringify`) or the exact JSON text to send. */
  payload: unknown
  /** Unix seconds, or a Date; defaults to now. Use an old one to test the 300 s tolerance. */
  timestamp?: number | Date
}

/** A signed webhook, ready to send. */
export interface SignedWebhook {
  /** The exact body that was signed: send these bytes, unchanged. */
  body: string
  /** `content-type`, `x-service-signature` and `x-service-timestamp`, ready for `fetch`. */
  headers: Record<string, string>
  /** `sha256=` followed by lowercase hex. */
  signature: string
  /** Unix seconds, as sent in the timestamp header. */
  timestamp: string
}

/**
 * Signs an event exactly as the service does, for an app's own tests: the payload is serialised,
 * and the body, its headers and signature come back ready to send. (`signWebhook` in
 * `@ringhook/core/signature` signs a body you already have.)
 *
 * @example
 * const { body, headers } = await signEvent({ secret, payload: events.gesture() })
 * const response = await fetch('http://127.0.0.1:3000/webhooks', { method: 'POST', headers, body })
 */
export async function signEvent(options: SignEventOptions): Promise<SignedWebhook> {
  const body = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload)
  const timestamp =
    options.timestamp instanceof Date ? Math.floor(options.timestamp.getTime() / 1000) : options.timestamp
  const signed = await signBody({ secret: options.secret, body, ...(timestamp === undefined ? {} : { timestamp }) })
  return { body, headers: signed.headers, signature: signed.signature, timestamp: signed.timestamp }
}

/**
 * The old name of {@link SignEventOptions}.
 *
 * @deprecated Use `SignEventOptions`; removed in 0.3.0.
 */
export type SignWebhookOptions = SignEventOptions

/**
 * The old name of {@link signEvent}, which shared its name with `@ringhook/core`'s `signWebhook({ secret, body })`.
 *
 * @deprecated Use `signEvent`; removed in 0.3.0.
 */
export const signWebhook: typeof signEvent = signEvent
