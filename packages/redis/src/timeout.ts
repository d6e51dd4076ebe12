import { RedisStoreError, type RedisStoreOperation } from './errors.js'

/**
 * Settles with `work`, or rejects with `onTimeout()` once `ms` have passed; a failure of `work` after
 * that is never left unhandled. This package's one timer around a command: the stores' and the
 * limit store's calls go through it.
 */
export async function withinMs<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  work.catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Settles with `work`, or rejects once `ms` have passed. A slow Redis thus costs the receiver
 * a bounded wait and a 503, never the service's 30 s acknowledgement limit. Any failure is a
 * {@link RedisStoreError} naming the operation.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, operation: RedisStoreOperation): Promise<T> {
  try {
    return await withinMs(work, ms, () => new RedisStoreError(operation, `no answer within ${ms} ms`))
  } catch (error) {
    if (error instanceof RedisStoreError) throw error
    throw new RedisStoreError(operation, describe(error), { cause: error })
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))
