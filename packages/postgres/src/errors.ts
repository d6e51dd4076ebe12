/** Which operation of `@ringhook/postgres` failed. */
export type PostgresStoreOperation = 'claim' | 'complete' | 'release' | 'commit' | 'migrate' | 'sweep'

/**
 * Postgres failed, answered something unexpected, or did not answer within `queryTimeoutMs`.
 * From `claim`, the receiver reports it as `store_unavailable` and, by default, answers 503 so the
 * service retries; from an inbox handler's commit, the handler fails and the receiver answers 500.
 */
export class PostgresStoreError extends Error {
  /** Always `'PostgresStoreError'`. */
  override readonly name = 'PostgresStoreError'

  constructor(
    /** Which operation failed. */
    readonly operation: PostgresStoreOperation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Postgres dedup store, ${operation}: ${message}`, options)
  }
}
