import { RinghookConfigError } from '@ringhook/core'
import { MAX_TIMER_MS, type RefreshResult } from './refresher.js'
import type { UserStates } from './user-states.js'

/**
 * A turn one instance of a fleet holds at a time, for a while: `@ringhook/redis`' `redisRefreshTurn`
 * is one. States kept in a shared store need refreshing by one instance, not by each.
 */
export interface RefreshTurn {
  /** Takes the turn for `ms` unless another instance holds it; resolves whether this one has it now. */
  take(ms: number): Promise<boolean>
  /** Gives a turn taken back early (its refresh failed), so that another instance may try at once. */
  give(): Promise<void>
}

/** How {@link fleetRefresh} takes turns. */
export interface FleetRefreshOptions {
  /** The turn the fleet shares. */
  turn: RefreshTurn
  /** How often an instance tries to take the turn and refresh every user (ms), 1000 at least. */
  everyMs: number
  /** Failures of the scheduled refreshes (the turn's store away, the API failing). Default: logged to the console. */
  onError?: (error: unknown) => void
  /** What each scheduled refresh of this instance did. */
  onRefreshed?: (result: RefreshResult) => void
}

/** One fleet's refresh of states it shares: see {@link fleetRefresh}. */
export interface FleetRefresh {
  /** Refreshes every user now if this instance takes the turn; `undefined` when another instance holds it. */
  refresh(): Promise<RefreshResult | undefined>
  /** Stops the schedule. */
  close(): void
}

/**
 * Refreshes states a fleet shares (a Redis or Postgres store) once per `everyMs` for the whole fleet:
 * every instance tries on its own schedule, and the one that takes the turn refreshes. The turn lasts
 * a little less than `everyMs`, so the next period finds it free; a failed refresh gives it back.
 *
 * @example
 * import { redisRefreshTurn, redisUserStore } from '@ringhook/redis'
 * import { Redis } from 'ioredis'
 * const redis = new Redis(process.env.REDIS_URL!)
 * const users = createUserStates({ store: redisUserStore({ client: redis }), client, appId: 'app_123' })
 * const fleet = fleetRefresh(users, { turn: redisRefreshTurn({ client: redis, key: 'myapp:users-refresh' }), everyMs: 600_000 })
 */
export function fleetRefresh<Via>(states: UserStates<Via>, options: FleetRefreshOptions): FleetRefresh {
  const { turn, everyMs } = options
  if (!(everyMs >= 1000 && everyMs <= MAX_TIMER_MS))
    throw new RinghookConfigError(
      `fleetRefresh: everyMs must be from 1000 to ${MAX_TIMER_MS} (24.8 days), got ${everyMs}`,
    )
  if (typeof turn?.take !== 'function' || typeof turn.give !== 'function')
    throw new RinghookConfigError('fleetRefresh: `turn` must have take(ms) and give()')
  const onError = options.onError ?? ((error: unknown) => console.warn('@ringhook/users: refresh failed:', error))
  // Held a little less than a period (a second, or a tenth of a short one): the next one finds it free.
  const holdMs = everyMs - Math.min(1000, everyMs / 10)

  const refresh = async (): Promise<RefreshResult | undefined> => {
    if (!(await turn.take(holdMs))) return undefined
    try {
      return await states.refresh()
    } catch (error) {
      await turn.give().catch(() => undefined)
      throw error
    }
  }
  const timer = setInterval(() => {
    refresh().then((result) => result && options.onRefreshed?.(result), onError)
  }, everyMs)
  timer.unref?.()
  return { refresh, close: () => clearInterval(timer) }
}
