// The app's users and their states, kept with @ringhook/users on the Redis every instance shares:
// each lifecycle webhook is applied by its timestamp whatever instance it reaches and whatever
// order it arrives in, and the fleet refreshes everyone from the API once every REFRESH_EVERY_MS.
import type { RinghookClient } from '@ringhook/client'
import type { Logger, Receiver } from '@ringhook/core'
import { redisRefreshTurn, redisUserStore } from '@ringhook/redis'
import { createUserStates, fleetRefresh, type UserStates } from '@ringhook/users'
import type { Redis } from 'ioredis'

/** How often the fleet reads every user from the API, to repair what webhooks lost (Redis away, say). */
export const REFRESH_EVERY_MS = 10 * 60_000

/**
 * The part of the key's 100 requests / 60 s the whole fleet's refreshes may spend: the rest stays
 * for broadcasts. Each instance keeps to its part of it.
 */
export const REFRESH_SHARE = 0.1

export interface UsersOptions {
  client: RinghookClient
  appId: string
  redis: Redis
  /** Before every key the app keeps in Redis. */
  prefix: string
  /** How many instances share the key. */
  fleetSize: number
  logger: Logger
}

/** The users' states, kept from the receiver's lifecycle webhooks in the shared Redis. */
export interface Users {
  readonly states: UserStates
  /** Reads every user from the API now, unless another instance did in the last REFRESH_EVERY_MS. */
  refresh(): Promise<void>
  /** Stops the schedule. */
  close(): void
}

export function keepUsers(receiver: Receiver, options: UsersOptions): Users {
  const { client, appId, redis, prefix, fleetSize, logger } = options
  const states = createUserStates({
    store: redisUserStore({ client: redis, prefix: `${prefix}users:` }),
    client,
    appId,
    // Uncertain users are refreshed by the instance that saw the tie, within its part of the share.
    refresh: { share: REFRESH_SHARE / fleetSize },
    onError: (error) => logger.warn({ error: String(error) }, "Refreshing users' states failed"),
  })
  states.attach(receiver, ({ userAppId, before, after, stale }) => {
    const what = stale ? `stale, still ${after.state}` : `${before?.state ?? 'new'} -> ${after.state}`
    logger.info({ user_app_id: userAppId }, `user ${what}`)
  })

  // The states are shared, so one instance refreshes them for all: whoever takes the turn in Redis.
  const fleet = fleetRefresh(states, {
    turn: redisRefreshTurn({ client: redis, key: `${prefix}users-refresh` }),
    everyMs: REFRESH_EVERY_MS,
    onRefreshed: ({ listed, changed }) => logger.info({ listed, changed }, "Users' states refreshed from the API"),
    onError: (error) => logger.warn({ error: String(error) }, "Refreshing users' states failed"),
  })
  const refresh = async (): Promise<void> => {
    const result = await fleet.refresh()
    if (result) logger.info({ listed: result.listed, changed: result.changed }, "Users' states refreshed from the API")
  }
  return {
    states,
    refresh,
    close: () => {
      fleet.close()
      states.close()
    },
  }
}
