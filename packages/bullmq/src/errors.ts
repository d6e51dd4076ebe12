/**
 * The job could not be stored in Redis (it failed, or did not answer within `addTimeoutMs`).
 * Thrown from the receiver's handler, so the receiver answers 500 `handler_error`, releases its
 * dedup claim, and the service retries the delivery.
 */
export class EnqueueError extends Error {
  /** Always `'EnqueueError'`. */
  override readonly name = 'EnqueueError'
}
