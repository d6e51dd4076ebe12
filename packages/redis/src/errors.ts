/** Which store operation failed. */
export type RedisStoreOperation = 'claim' | 'complete' | 'release'

/**
 * Redis failed, answered something unexpected, or did not answer within `commandTimeoutMs`.
 * The receiver reports it as `store_unavailable` and, by default, answers 503 so the service retries.
 */
export class RedisStoreError extends Error {
  /** Always `'RedisStoreError'`. */
  override readonly name = 'RedisStoreError'

  constructor(
    /** Which operation failed. */
    readonly operation: RedisStoreOperation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Redis dedup store, ${operation}: ${message}`, options)
  }
}
