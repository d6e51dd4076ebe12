/** Which of the package's stores failed. */
export type DurableStoreKind = 'dedup' | 'users' | 'limits'

/**
 * A Durable Object store's object could not be reached, failed, or did not answer in time. A receiver
 * reports it as `store_unavailable` and, by default, answers 503 so that the service retries; a
 * limiter counts alone meanwhile (its fallback).
 */
export class DurableStoreError extends Error {
  /** Always `'DurableStoreError'`. */
  override readonly name = 'DurableStoreError'

  constructor(
    /** Which store. */
    readonly store: DurableStoreKind,
    /** Which operation failed, such as `claim` or `apply`. */
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Durable Object ${store} store, ${operation}: ${message}`, options)
  }
}
