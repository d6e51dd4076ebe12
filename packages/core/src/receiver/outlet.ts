import type { DeliveryObserver, DeliveryOutcome } from './instrumentation.js'
import type { WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'

/** What an outlet sees of a delivery once its answer is decided. */
export interface AnsweredDelivery {
  readonly request: WebhookRequest
  /** The body as received; empty when it was never read. */
  readonly bytes: Uint8Array
  /** The event, once its payload passed the schema; `{ event: '' }` before. */
  readonly event: { readonly event: string; readonly data?: unknown }
  /** When the request reached the receiver, from its `now()`. */
  readonly receivedAtMs: number
  readonly response: WebhookResponse
  readonly outcome: DeliveryOutcome
  /** The instrumentation's observer of this delivery, when one watches it. */
  readonly observer: DeliveryObserver | undefined
}

/** What an outlet may read of the receiver. */
export interface OutletOptions {
  /** The signature header's name, in lower case (a capture redacts it). */
  readonly signatureHeader: string
}

/**
 * The one way out of the pipeline: once a delivery's answer is decided, the pipeline hands it to its
 * outlet, once. Instrumentation (the observer's `end`) and capture implement it, outside the pipeline
 * (outlets.ts joins them). It must not throw, and must not wait: a throw is ignored, since the answer
 * stands, and what it records it writes later.
 */
export interface Outlet {
  answered(delivery: AnsweredDelivery, options: OutletOptions): void
}

/** Whether a value is an outlet (a capture made by `createCapture`, of any copy of core). */
export const isOutlet = (value: unknown): value is Outlet =>
  typeof (value as Partial<Outlet> | undefined)?.answered === 'function'
