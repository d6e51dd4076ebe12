import { type Clock, systemClock } from './clock.js'
import type { LimitRules, LimitScope, LimitStore, TakeRequest, TakeResult, WindowLimit } from './limit-store.js'

/** Times of the events in the last window, oldest first. */
class SlidingWindow {
  readonly stamps: number[] = []

  /** Milliseconds until one more event fits under `rule`; 0 when it fits now. */
  waitFor(rule: WindowLimit, now: number): number {
    this.prune(rule, now)
    if (this.stamps.length < rule.limit) return 0
    return (this.stamps[this.stamps.length - rule.limit] as number) + rule.windowMs - now
  }

  /** How many more events fit now. */
  left(rule: WindowLimit, now: number): number {
    this.prune(rule, now)
    return Math.max(0, rule.limit - this.stamps.length)
  }

  record(now: number): void {
    this.stamps.push(now)
  }

  prune(rule: WindowLimit, now: number): void {
    while (this.stamps.length > 0 && (this.stamps[0] as number) <= now - rule.windowMs) this.stamps.shift()
  }
}

const MAX_IDLE_USERS = 1000

/**
 * Counts in this process: a sliding window for the key and one per user, so no window of `windowMs`
 * ever holds more than `limit` (which keeps under the service's limit whether it counts in fixed or
 * sliding windows).
 */
export class MemoryLimitStore implements LimitStore {
  readonly shared = false
  readonly #clock: Clock
  readonly #key = new SlidingWindow()
  readonly #users = new Map<string, SlidingWindow>()
  readonly #paused = new Map<string, number>()
  /** The longest user window seen, for forgetting idle users. */
  #userWindowMs = 0

  constructor(clock: Clock = systemClock) {
    this.#clock = clock
  }

  take(request: TakeRequest): TakeResult {
    const now = this.#clock.now()
    const { key, user } = request.rules
    const perUser = user && request.user !== undefined ? this.#user(request.user, user) : undefined
    const keyWait = Math.max(key ? this.#key.waitFor(key, now) : 0, key ? this.#pausedFor('key', now) : 0)
    const userWait = perUser
      ? Math.max(perUser.waitFor(user as WindowLimit, now), this.#pausedFor(`user:${request.user}`, now))
      : 0
    const waitMs = Math.max(keyWait, userWait)
    if (waitMs > 0) return { ok: false, scope: keyWait >= userWait ? 'key' : 'user', waitMs }
    this.record(request.user, request.rules, now)
    return { ok: true }
  }

  /** Counts a slot taken at `at` (default now) without asking: a shared store's grant, mirrored. */
  record(user: string | undefined, rules: LimitRules, at = this.#clock.now()): void {
    // Pruned as it goes: a mirror is written to on every slot and may never be read.
    if (rules.key) {
      this.#key.prune(rules.key, at)
      this.#key.record(at)
    }
    if (rules.user && user !== undefined) {
      const window = this.#user(user, rules.user)
      window.prune(rules.user, at)
      window.record(at)
    }
  }

  pause(scope: LimitScope, user: string | undefined, ms: number): void {
    const name = scope === 'key' ? 'key' : `user:${user}`
    const until = this.#clock.now() + ms
    if ((this.#paused.get(name) ?? 0) < until) this.#paused.set(name, until)
  }

  remaining(user: string, rule: WindowLimit): number {
    const now = this.#clock.now()
    if (this.#pausedFor(`user:${user}`, now) > 0) return 0
    return this.#users.get(user)?.left(rule, now) ?? rule.limit
  }

  leave(): void {
    // No line to leave: waiters in one process retry on their own.
  }

  #pausedFor(name: string, now: number): number {
    const until = this.#paused.get(name)
    if (until === undefined) return 0
    if (until > now) return until - now
    this.#paused.delete(name)
    return 0
  }

  #user(user: string, rule: WindowLimit): SlidingWindow {
    let window = this.#users.get(user)
    if (!window) {
      this.#userWindowMs = Math.max(this.#userWindowMs, rule.windowMs)
      if (this.#users.size >= MAX_IDLE_USERS) this.#forgetIdle()
      window = new SlidingWindow()
      this.#users.set(user, window)
    }
    return window
  }

  /** Drops users with nothing in their window, so the map stays bounded by active users. */
  #forgetIdle(): void {
    const now = this.#clock.now()
    for (const [user, window] of this.#users) {
      window.prune({ limit: 1, windowMs: this.#userWindowMs }, now)
      if (window.stamps.length === 0) this.#users.delete(user)
    }
  }
}

/**
 * A store that counts in this process: the default, and what each instance falls back to while a
 * shared store is unreachable.
 *
 * @example
 * const limiter = createRateLimiter({ store: createMemoryLimitStore() })
 */
export function createMemoryLimitStore(options: { clock?: Clock } = {}): LimitStore {
  return new MemoryLimitStore(options.clock)
}
