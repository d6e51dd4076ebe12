import { RinghookConfigError } from '@ringhook/core'
import { RATE_LIMITS } from '@ringhook/core/api'
import { type Clock, systemClock } from './clock.js'
import { LocalRateLimitError } from './errors.js'

/** At most `limit` events in any `windowMs`. */
export interface WindowLimit {
  /** How many. */
  limit: number
  /** The window's length, milliseconds. */
  windowMs: number
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
  /** Injectable time for tests. */
  clock?: Clock
}

/** Keeps one API key (and each user) under the service's limits, before requests leave. */
export interface RateLimiter {
  /** Takes a slot for one request; `user` is set for triggers. Waits or throws per `mode`. */
  acquire(user?: string, signal?: AbortSignal): Promise<void>
}

/** Times of the events in the last window, oldest first. */
class SlidingWindow {
  readonly #stamps: number[] = []
  constructor(readonly rule: WindowLimit) {}

  /** Milliseconds until one more event fits; 0 when it fits now. */
  waitFor(now: number): number {
    while (this.#stamps.length > 0 && (this.#stamps[0] as number) <= now - this.rule.windowMs) this.#stamps.shift()
    if (this.#stamps.length < this.rule.limit) return 0
    return (this.#stamps[this.#stamps.length - this.rule.limit] as number) + this.rule.windowMs - now
  }

  record(now: number): void {
    this.#stamps.push(now)
  }

  isIdle(now: number): boolean {
    this.waitFor(now) // prunes expired stamps
    return this.#stamps.length === 0
  }
}

const MAX_IDLE_USERS = 1000

/**
 * A sliding-window limiter: no window of `windowMs` ever holds more than `limit` requests,
 * which keeps under the service's limit whether it counts in fixed or sliding windows.
 *
 * @example
 * const limiter = createRateLimiter({ mode: 'fail' })
 * await limiter.acquire('app_1/user-1') // throws LocalRateLimitError when a limit is reached
 */
export function createRateLimiter(options: RateLimitOptions = {}): RateLimiter {
  const clock = options.clock ?? systemClock
  const mode = options.mode ?? 'wait'
  const maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY
  const keyRule = options.requestsPerKey === undefined ? RATE_LIMITS.requestsPerKey : options.requestsPerKey
  const userRule = options.vibesPerUser === undefined ? RATE_LIMITS.vibesPerUser : options.vibesPerUser
  for (const rule of [keyRule, userRule]) {
    if (rule && !(rule.limit >= 1 && rule.windowMs > 0))
      throw new RinghookConfigError('A rate limit needs limit >= 1 and windowMs > 0')
  }
  const keyWindow = keyRule ? new SlidingWindow(keyRule) : undefined
  const users = new Map<string, SlidingWindow>()

  const userWindow = (user: string | undefined): SlidingWindow | undefined => {
    if (!userRule || user === undefined) return undefined
    let window = users.get(user)
    if (!window) {
      if (users.size >= MAX_IDLE_USERS) forgetIdle(users, clock.now())
      window = new SlidingWindow(userRule)
      users.set(user, window)
    }
    return window
  }

  return {
    async acquire(user, signal) {
      const perUser = userWindow(user)
      for (;;) {
        signal?.throwIfAborted()
        const now = clock.now()
        const keyWait = keyWindow?.waitFor(now) ?? 0
        const userWait = perUser?.waitFor(now) ?? 0
        const wait = Math.max(keyWait, userWait)
        if (wait <= 0) {
          keyWindow?.record(now)
          perUser?.record(now)
          return
        }
        if (mode === 'fail' || wait > maxWaitMs)
          throw new LocalRateLimitError(keyWait >= userWait ? 'key' : 'user', wait)
        await clock.sleep(wait, signal)
      }
    },
  }
}

/** Drops users with nothing in their window, so the map stays bounded by active users. */
function forgetIdle(users: Map<string, SlidingWindow>, now: number): void {
  for (const [user, window] of users) if (window.isIdle(now)) users.delete(user)
}
