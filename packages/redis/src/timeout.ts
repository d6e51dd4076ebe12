import { RedisStoreError, type RedisStoreOperation } from './errors.js'

/**
 * Settles with `work`, or rejects once `ms` have passed. A slow Redis thus costs the receiver
 * a bounded wait and a 503, never the service's 30 s acknowledgement limit. Failures of `work`
 * after that are the caller's to handle; they are never left unhandled.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, operation: RedisStoreOperation): Promise<T> {
  work.catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisStoreError(operation, `no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, expired])
  } catch (error) {
    if (error instanceof RedisStoreError) throw error
    throw new RedisStoreError(operation, describe(error), { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))
