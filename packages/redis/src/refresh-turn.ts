import { randomUUID } from 'node:crypto'
import { RinghookConfigError } from '@ringhook/core'
import type { RefreshTurn } from '@ringhook/users/store'
import { type RedisScriptClient, runScript } from './client.js'
import { script } from './scripts.js'

/** What the turn needs of a Redis client: ioredis' `Redis` (or `Cluster`) is one as it is. */
export interface RedisTurnClient extends RedisScriptClient {
  /** SET key value PX ms NX: takes the turn unless it is held. */
  set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<'OK' | null>
}

/** Where {@link redisRefreshTurn} keeps the turn. */
export interface RedisRefreshTurnOptions {
  /** An ioredis client, shared with the app's other uses. */
  client: RedisTurnClient
  /** The key the fleet's instances share, one per app (`myapp:users-refresh`). */
  key: string
}

/** ARGV: the holder. Deletes the turn only while this holder has it (it may have lapsed and been taken). */
const GIVE = script(
  'give_turn',
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
)

/**
 * A turn on Redis for `fleetRefresh` of `@ringhook/users`: one key set with `NX PX`, so one instance
 * of the fleet holds it at a time, until it lapses or its holder gives it back.
 *
 * @example
 * import { fleetRefresh } from '@ringhook/users'
 * import { Redis } from 'ioredis'
 * const turn = redisRefreshTurn({ client: new Redis(process.env.REDIS_URL!), key: 'myapp:users-refresh' })
 */
export function redisRefreshTurn(options: RedisRefreshTurnOptions): RefreshTurn {
  const { client, key } = options
  if (typeof key !== 'string' || key === '')
    throw new RinghookConfigError('redisRefreshTurn: `key` must be a non-empty string')
  // Names this instance as the holder, so that it never gives back a turn another one took.
  const holder = randomUUID()
  return {
    take: async (ms) => (await client.set(key, holder, 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK',
    give: async () => {
      await runScript(client, GIVE, key, [holder])
    },
  }
}
