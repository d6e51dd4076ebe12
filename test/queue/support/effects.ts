import { applyOnce, type JobContext } from '@ringhook/bullmq'
import type { EventOf } from '@ringhook/core'
import type { Redis } from 'ioredis'

/** Where a test's handler effects are kept: one list entry per effect applied. */
export const effectsKey = (prefix: string): string => `${prefix}:effects`

/**
 * A handler's side effect written as the README's recipe says: the write and its marker in one
 * `applyOnce`, keyed by the job's idempotency key. Resolves whether this run applied it.
 */
export function recordAnswer(
  redis: Redis,
  prefix: string,
  event: EventOf<'notification.responded'>,
  context: JobContext,
): Promise<boolean> {
  return applyOnce(redis, `${prefix}:done:${context.job.idempotencyKey}`, [
    ['RPUSH', effectsKey(prefix), event.data.event_id],
  ])
}

/** The effects applied so far, sorted, to compare with the events sent. */
export async function effects(redis: Redis, prefix: string): Promise<string[]> {
  return (await redis.lrange(effectsKey(prefix), 0, -1)).sort()
}
