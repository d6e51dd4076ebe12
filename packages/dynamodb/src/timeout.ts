import { DynamoDbStoreError, type DynamoDbStoreOperation } from './errors.js'

/**
 * Settles with `work`, or rejects once `ms` have passed. The AWS SDK retries a failed request with
 * backoff and sets no deadline of its own: without this, an unreachable endpoint would hold a
 * delivery for seconds, past the service's patience. What `work` does after that is the caller's to
 * clean up (`onLate`); its failures are never left unhandled.
 */
export async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  operation: DynamoDbStoreOperation,
  onLate?: (value: T) => void,
): Promise<T> {
  let timedOut = false
  work.then((value) => (timedOut ? onLate?.(value) : undefined)).catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true
      reject(new DynamoDbStoreError(operation, `no answer within ${ms} ms`))
    }, ms)
  })
  try {
    return await Promise.race([work, expired])
  } catch (error) {
    if (error instanceof DynamoDbStoreError) throw error
    throw new DynamoDbStoreError(operation, describe(error), { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message || 'no message'}` : String(error)
