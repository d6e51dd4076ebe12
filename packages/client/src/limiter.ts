import { type Logger, RinghookConfigError } from '@ringhook/core'
import { RATE_LIMITS } from '@ringhook/core/api'
import { consoleLogger } from '@ringhook/core/internal'
import { type Clock, systemClock } from './clock.js'
import { LocalRateLimitError } from './errors.js'
import { FallbackStore } from './fallback-store.js'
import type { LimitRules, LimitScope, LimitStore, WindowLimit } from './limit-store.js'
import { MemoryLimitStore } from './memory-limit-store.js'

export type { WindowLimit } from './limit-store.js'

/** This instance's part of the limits while a shared store is unreachable. */
export type FallbackShare =
  | {
      /** How many instances share the key: each takes `1 / fleetSize` of each limit. */
      fleetSize: number
    }
  | {
      /** The fraction of each limit this instance takes, in (0, 1]. */
      share: number
    }

/**
 * The client-side limiter (the `rateLimit` option), which keeps requests under the service's limits
 * before they leave.
 */
export interface RateLimitOptions {
  /** `wait` (default) delays a call until a slot frees; `fail` throws {@link LocalRateLimitError} at once. */
  mode?: 'wait' | 'fail'
  /** Requests per API key. Default 100 per 60 s (the service's limit); `false` turns it off. */
  requestsPerKey?: WindowLimit | false
  /** Triggers per user of an app. Default 30 per 60 s (the service's limit); `false` turns it off. */
  vibesPerUser?: WindowLimit | false
  /** In `wait` mode, fail instead when the wait would be longer than this. Default: never. */
  maxWaitMs?: number
  /**
   * Where the counts live. Default: this process's memory. A shared store (`createRedisLimitStore`
   * from `@ringhook/redis`) makes every instance using it count together.
   */
  store?: LimitStore
  /** With a shared store, required: this instance's part of the limits while the store is down. */
  fallback?: FallbackShare
  /**
   * Added to each window, so that a request given the last slot of a window never reaches the
   * service inside it, whatever the network's jitter. Default 0 in memory, 1000 with a shared store.
   */
  marginMs?: number
  /** Where a shared store's fall and return are logged. Default: the console. */
  logger?: Logger
  /** Injectable time for tests. */
  clock?: Clock
}

/** Keeps one API key (and each user) under the service's limits, before requests leave. */
export interface RateLimiter {
  /** Takes a slot for one request; `user` is set for triggers. Waits or throws per `mode`. */
  acquire(user?: string, signal?: AbortSignal): Promise<void>
  /** Takes one of the user's vibes now, never waiting: `false` when none is left (a gesture reply's vibe). */
  takeVibe?(appId: string, userAppId: string): Promise<boolean>
  /** How many vibes the user may still be sent now. */
  vibesLeft?(appId: string, userAppId: string): Promise<number>
  /** Holds the key's (or the user's) slots for `ms`, for every instance sharing the store: the service said 429. */
  pause?(scope: LimitScope, user: string | undefined, ms: number): Promise<void>
}

/** The limiter {@link createRateLimiter} returns: every method present. */
export type FleetRateLimiter = Required<RateLimiter>

/**
 * A sliding-window limiter: no window of `windowMs` ever holds more than `limit` requests,
 * which keeps under the service's limit whether it counts in fixed or sliding windows.
 *
 * @example
 * const limiter = createRateLimiter({ mode: 'fail' })
 * await limiter.acquire('app_1/user-1') // throws LocalRateLimitError when a limit is reached
 */
export function createRateLimiter(options: RateLimitOptions = {}): FleetRateLimiter {
  const clock = options.clock ?? systemClock
  const mode = options.mode ?? 'wait'
  const maxWaitMs = mode === 'fail' ? 0 : (options.maxWaitMs ?? Number.POSITIVE_INFINITY)
  const given = options.store ?? new MemoryLimitStore(clock)
  const margin = options.marginMs ?? (given.shared ? 1000 : 0)
  const rules: LimitRules = {
    key: widen(options.requestsPerKey === undefined ? RATE_LIMITS.requestsPerKey : options.requestsPerKey, margin),
    user: widen(options.vibesPerUser === undefined ? RATE_LIMITS.vibesPerUser : options.vibesPerUser, margin),
  }
  const store = given.shared ? withFallback(given, rules, options, clock) : given
  const vibeRules: LimitRules = { key: false, user: rules.user }
  const ids = { instance: globalThis.crypto.randomUUID(), next: 0 }
  const ticket = () => `${ids.instance}:${ids.next++}`

  return {
    async acquire(user, signal) {
      const request = { ticket: ticket(), user, rules, maxWaitMs }
      for (;;) {
        signal?.throwIfAborted()
        const result = await store.take(request)
        if (result.ok) return
        if (result.waitMs > maxWaitMs) throw new LocalRateLimitError(result.scope, Math.ceil(result.waitMs))
        try {
          await clock.sleep(result.waitMs, signal)
        } catch (error) {
          await store.leave(request.ticket)
          throw error
        }
      }
    },
    async takeVibe(appId, userAppId) {
      if (!rules.user) return true
      const result = await store.take({
        ticket: ticket(),
        user: userKey(appId, userAppId),
        rules: vibeRules,
        maxWaitMs: 0,
      })
      return result.ok
    },
    async vibesLeft(appId, userAppId) {
      if (!rules.user) return Number.POSITIVE_INFINITY
      return store.remaining(userKey(appId, userAppId), rules.user)
    },
    async pause(scope, user, ms) {
      if (ms > 0) await store.pause(scope, user, ms)
    },
  }
}

function widen(rule: WindowLimit | false, marginMs: number): WindowLimit | false {
  if (rule && !(rule.limit >= 1 && rule.windowMs > 0))
    throw new RinghookConfigError('A rate limit needs limit >= 1 and windowMs > 0')
  return rule && { limit: rule.limit, windowMs: rule.windowMs + marginMs }
}

function withFallback(store: LimitStore, rules: LimitRules, options: RateLimitOptions, clock: Clock): LimitStore {
  const share = shareOf(options.fallback)
  const logger = options.logger ?? consoleLogger({ component: 'rate-limiter' })
  return new FallbackStore(store, rules, share, clock, logger)
}

function shareOf(fallback: FallbackShare | undefined): number {
  const share = fallback === undefined ? Number.NaN : 'fleetSize' in fallback ? 1 / fallback.fleetSize : fallback.share
  if (share > 0 && share <= 1) return share
  throw new RinghookConfigError(
    'A shared rate-limit store needs `fallback`: { fleetSize } (how many instances share the key) or { share } in (0, 1], ' +
      'the part of each limit this instance keeps to while the store is unreachable',
  )
}

/**
 * The name a user's vibes are counted under: `app_id/user_app_id`, with `%` and `/` in the app id
 * written `%25` and `%2F`, so the first `/` always ends the app id and no two users of two apps share
 * a count (`a/b` + `c` and `a` + `b/c` would). An app id without either reads as it is.
 */
export function userKey(appId: string, userAppId: string): string {
  const app = /[%/]/.test(appId) ? appId.replaceAll('%', '%25').replaceAll('/', '%2F') : appId
  return `${app}/${userAppId}`
}
