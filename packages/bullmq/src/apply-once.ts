import { RinghookConfigError } from '@ringhook/core'

/** The command `applyOnce` needs, in ioredis' shape: an ioredis `Redis` is one as it is. */
export interface EvalClient {
  /** Runs a Lua script with its keys, then its arguments. */
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>
}

/** One Redis command: its name, then its arguments, e.g. `['HSET', 'answers', eventId, 'yes']`. */
export type RedisCommand = readonly [string, ...(string | number)[]]

/**
 * KEYS[1]: the marker. ARGV[1]: its ttl (ms). ARGV[2]: the commands, as JSON.
 * One script, so Redis runs the check, the effects and the marker with nothing in between, and a
 * worker killed at any point leaves either all of them or none. The marker is written last: a
 * command that fails (a wrong type) fails the job, which is retried, instead of marking it done.
 */
const SCRIPT = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for _, command in ipairs(cjson.decode(ARGV[2])) do redis.call(unpack(command)) end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return 1`

/** Seven days: longer than any retry schedule, and than most replays come after a failure. */
export const DEFAULT_APPLY_ONCE_TTL_MS = 7 * 24 * 60 * 60 * 1000

/**
 * Applies Redis writes once per `marker`, atomically: however many times a job runs (retries,
 * a worker killed mid-job, replays), the writes happen once. Resolves true when they were applied
 * now, false when an earlier run had applied them. Use the job's idempotency key in the marker.
 * On Redis Cluster, every key involved must share the marker's hash slot (use a `{hash tag}`).
 *
 * @example
 * worker.on('notification.responded', async (event, ctx) => {
 *   await applyOnce(redis, `myapp:done:${ctx.job.idempotencyKey}`, [
 *     ['HSET', 'myapp:answers', event.data.event_id, event.data.response],
 *     ['INCR', 'myapp:answer-count'],
 *   ])
 * })
 */
export async function applyOnce(
  client: EvalClient,
  marker: string,
  commands: readonly RedisCommand[],
  { ttlMs = DEFAULT_APPLY_ONCE_TTL_MS }: { ttlMs?: number } = {},
): Promise<boolean> {
  if (typeof marker !== 'string' || marker.length === 0) throw new RinghookConfigError('applyOnce needs a marker key')
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RinghookConfigError(`applyOnce: ttlMs must be a positive number, got ${ttlMs}`)
  const encoded = JSON.stringify(commands.map((command) => command.map(String)))
  const applied = await client.eval(SCRIPT, 1, marker, String(Math.ceil(ttlMs)), encoded)
  return applied === 1
}
