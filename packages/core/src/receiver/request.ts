import type { HeaderInput } from '../signature/headers.js'
import type { BodyInput } from './body.js'

/** What arrived, untouched: adapters build this from their framework's request. */
export interface WebhookRequest {
  /** The HTTP method, in any case. */
  method: string
  /** The request's headers, in whatever shape the framework keeps them. */
  headers: HeaderInput
  /** The body exactly as received, or a stream of it that the receiver reads with its limits. */
  rawBody: BodyInput
  /**
   * Set by an adapter when a body parser earlier in the app consumed the body and kept no raw
   * copy, so no signature can be checked: the receiver answers `body_already_parsed` (500) and
   * logs this text, which should say how to fix the app.
   */
  bodyAlreadyParsed?: string
}

/** Hooks an adapter offers the receiver. */
export interface HandleHooks {
  /** Keeps work that outlives the response alive (Workers' `ctx.waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void
}
