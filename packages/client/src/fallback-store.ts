import type { Logger } from '@ringhook/core'
import type { Clock } from './clock.js'
import type {
  LimitRules,
  LimitScope,
  LimitStore,
  RestoredGrant,
  TakeRequest,
  TakeResult,
  WindowLimit,
} from './limit-store.js'
import { MemoryLimitStore } from './memory-limit-store.js'

/** How long an instance counts alone before it asks the shared store again. */
const PROBE_INTERVAL_MS = 1000

interface LocalGrant {
  at: number
  user: string | undefined
  key: boolean
}

/**
 * A shared store with a local stand-in: while the shared one fails (Redis down or slow), this
 * instance counts alone against its `share` of each limit, then, when the shared store answers
 * again, adds what it took meanwhile to the shared count and goes back to it.
 *
 * The local count starts from this instance's own slots of the last window (every slot the shared
 * store gave is mirrored here), so an instance that had used its share waits; one that had used
 * less may add up to its share, which is the documented bound on the fall.
 */
export class FallbackStore implements LimitStore {
  readonly shared = true
  readonly #store: LimitStore
  readonly #local: MemoryLimitStore
  readonly #share: number
  readonly #clock: Clock
  readonly #logger: Logger
  readonly #rules: LimitRules
  #down = false
  #nextProbe = 0
  #grants: LocalGrant[] = []

  constructor(store: LimitStore, rules: LimitRules, share: number, clock: Clock, logger: Logger) {
    this.#store = store
    this.#rules = rules
    this.#share = share
    this.#clock = clock
    this.#logger = logger
    this.#local = new MemoryLimitStore(clock)
  }

  /** Whether this instance counts alone right now. */
  get fallingBack(): boolean {
    return this.#down
  }

  async take(request: TakeRequest): Promise<TakeResult> {
    if (this.#askShared()) {
      try {
        if (this.#down) await this.#restore()
        const result = await this.#store.take(request)
        if (this.#down) this.#rejoin()
        if (result.ok) this.#local.record(request.user, request.rules)
        return result
      } catch (error) {
        this.#fall(error)
      }
    }
    const result = this.#local.take({ ...request, rules: this.#shareOf(request.rules) })
    if (result.ok) this.#grants.push({ at: this.#clock.now(), user: request.user, key: request.rules.key !== false })
    return result
  }

  async pause(scope: LimitScope, user: string | undefined, ms: number): Promise<void> {
    this.#local.pause(scope, user, ms)
    if (this.#down) return
    try {
      await this.#store.pause(scope, user, ms)
    } catch (error) {
      this.#fall(error)
    }
  }

  async remaining(user: string, rule: WindowLimit): Promise<number> {
    if (!this.#down) {
      try {
        return await this.#store.remaining(user, rule)
      } catch (error) {
        this.#fall(error)
      }
    }
    return this.#local.remaining(user, shareOfRule(rule, this.#share))
  }

  async leave(ticket: string): Promise<void> {
    if (this.#down) return
    try {
      await this.#store.leave(ticket)
    } catch {
      // A place in line that is not given up lapses on its own in the store.
    }
  }

  /** Whether to ask the shared store: always while it answers; once a second while it does not. */
  #askShared(): boolean {
    if (!this.#down) return true
    const now = this.#clock.now()
    if (now < this.#nextProbe) return false
    this.#nextProbe = now + PROBE_INTERVAL_MS
    return true
  }

  /** Adds the slots taken alone to the shared count, once: from then on they are the store's. */
  async #restore(): Promise<void> {
    if (this.#grants.length === 0) return
    await this.#store.restore?.(this.#restored(this.#clock.now()), this.#rules)
    this.#grants = []
  }

  /** The shared store decided again: back with the fleet. */
  #rejoin(): void {
    this.#down = false
    this.#logger.info({}, 'The shared rate-limit store answers again: counting with the fleet')
  }

  #restored(now: number): RestoredGrant[] {
    return this.#grants.map((grant) => ({ ageMs: now - grant.at, user: grant.user, key: grant.key }))
  }

  #fall(error: unknown): void {
    if (this.#down) return
    this.#down = true
    this.#nextProbe = this.#clock.now() + PROBE_INTERVAL_MS
    this.#logger.warn(
      { error: error instanceof Error ? error.message : String(error), share: this.#share },
      'The shared rate-limit store failed: this instance counts alone against its share of each limit until it answers',
    )
  }

  #shareOf(rules: LimitRules): LimitRules {
    return {
      key: rules.key && shareOfRule(rules.key, this.#share),
      user: rules.user && shareOfRule(rules.user, this.#share),
    }
  }
}

/** This instance's part of a limit: at least one, or an instance alone could never send. */
const shareOfRule = (rule: WindowLimit, share: number): WindowLimit => ({
  limit: Math.max(1, Math.floor(rule.limit * share)),
  windowMs: rule.windowMs,
})
