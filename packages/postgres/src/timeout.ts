import { PostgresStoreError, type PostgresStoreOperation } from './errors.js'

/**
 * Settles with `work`, or rejects once `ms` have passed: a slow or exhausted pool costs a delivery
 * a bounded wait and a retryable answer, never the service's 30 s. What `work` does after that is
 * the caller's to clean up (`onLate`); its failures are never left unhandled.
 */
export async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  operation: PostgresStoreOperation,
  onLate?: (value: T) => void,
): Promise<T> {
  let timedOut = false
  work.then((value) => (timedOut ? onLate?.(value) : undefined)).catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true
      reject(new PostgresStoreError(operation, `no answer within ${ms} ms`))
    }, ms)
  })
  try {
    return await Promise.race([work, expired])
  } catch (error) {
    if (error instanceof PostgresStoreError) throw error
    throw new PostgresStoreError(operation, describe(error), { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

export const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))
