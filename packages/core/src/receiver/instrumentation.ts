import type { ErrorCode } from '../errors.js'
import type { VerifyResult } from '../signature/verify.js'
import type { WebhookRequest } from './request.js'

/**
 * Watches deliveries, for traces and metrics (`@ringhook/otel` is one). `delivery` is called once per
 * request, before anything is checked; the observer it returns hears of each stage that request
 * reaches. A receiver without one does no instrumentation work at all: no call, no clock read.
 *
 * An observer must not throw: a throw is a failure of the delivery, answered 500 `internal_error`
 * (a throwing `end` is ignored, since the answer is already decided).
 */
export interface Instrumentation {
  /** Starts observing one request; `undefined` leaves this one unobserved. */
  delivery(request: WebhookRequest): DeliveryObserver | undefined
}

/**
 * What a delivery came to, recorded by the stage that answered it: `ok` for a 2xx (an
 * acknowledgement or a vibe, including one sent at the deadline), `duplicate` for a reply replayed
 * to a duplicate, otherwise the error code answered (`unauthorized`, `delivery_in_progress`...).
 */
export type DeliveryOutcome = 'ok' | 'duplicate' | ErrorCode

/** What claiming a delivery's dedup key found: its store's answer, or `error` when the store failed. */
export type ClaimOutcome = 'claimed' | 'completed' | 'in_flight' | 'full' | 'error'

/** A dedup store call the receiver makes for a delivery it handles: settling its claim. */
export type SettleOperation = 'complete' | 'release'

/**
 * The stages of one delivery, each optional, in the order they can happen. Durations are
 * milliseconds from `performance.now()`, read only for a delivery that has an observer. A store
 * call that answered within the call (the memory store) is not timed: its duration is `undefined`,
 * since nothing was waited for.
 */
export interface DeliveryObserver {
  /** The signature and timestamp check: the index of the secret that matched, or why none did. */
  verified?(result: VerifyResult): void
  /**
   * An authentic, well-formed delivery: its event name and dedup key. The key is built from the
   * payload (user id, app id, event id) and must not be exported as it is.
   */
  accepted?(event: string, dedupKey: string): void
  /** The dedup store's answer to the claim on the key, and how long the delivery waited for it. */
  claimed?(outcome: ClaimOutcome, durationMs: number | undefined): void
  /**
   * Runs the handlers: wrap `run` to give them a context (a span they see as active). Call it once
   * and return what it returns, synchronously: a promise it returns is the handlers still running.
   */
  runHandlers?<T>(run: () => T): T
  /**
   * The handlers finished: `ok` when every one succeeded and a gesture's reply passed the trigger
   * rules. Past the deadline this comes after `end`.
   */
  handled?(ok: boolean, durationMs: number): void
  /** The deadline passed first: answered 2xx while the handlers go on (`acknowledge`) or 503 (`retry`). */
  deadline?(action: 'acknowledge' | 'retry'): void
  /** The claim was completed (handlers succeeded) or released (they failed); `ok` false when the store failed. */
  settled?(operation: SettleOperation, ok: boolean, durationMs: number | undefined): void
  /** The answer, once per request. Work past the deadline may still report `handled` and `settled`. */
  end?(status: number, outcome: DeliveryOutcome): void
}
