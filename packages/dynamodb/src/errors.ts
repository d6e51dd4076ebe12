/** Which operation of `@ringhook/dynamodb` failed. */
export type DynamoDbStoreOperation = 'claim' | 'complete' | 'release' | 'apply' | 'read' | 'create-table'

/**
 * DynamoDB failed, answered something unexpected, or did not answer within `requestTimeoutMs`.
 * From the dedup store, the receiver reports it as `store_unavailable` and, by default, answers 503
 * so the service retries; from the users' state store, the handler that applied the event fails.
 */
export class DynamoDbStoreError extends Error {
  /** Always `'DynamoDbStoreError'`. */
  override readonly name = 'DynamoDbStoreError'

  constructor(
    /** Which operation failed. */
    readonly operation: DynamoDbStoreOperation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`DynamoDB store, ${operation}: ${message}`, options)
  }
}

/** DynamoDB's refusal of a write whose condition did not hold: an answer, not a failure. */
export const isConditionFailed = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException'
