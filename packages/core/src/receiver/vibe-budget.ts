import { RinghookConfigError } from '../errors.js'
import type { Logger } from '../logger.js'

/**
 * Each user's vibes (30 a minute at the service), as a receiver spends them on gesture replies.
 * `createRateLimiter()` from `@ringhook/client` is one: given to the client and to the receiver,
 * triggers and replies count against one budget, for every instance sharing its store.
 */
export interface VibeBudget {
  /** Takes one of the user's vibes now, never waiting: `false` when none is left. */
  takeVibe(appId: string, userAppId: string): Promise<boolean> | boolean
  /** How many vibes the user may still be sent now. */
  vibesLeft(appId: string, userAppId: string): Promise<number> | number
}

/** What the receiver does with a gesture reply's vibe when the user has none left. */
export type WhenVibesSpent = 'drop' | 'send'

/** The receiver's `limits` option: whose budget replies spend, and what happens when it is spent. */
export interface ReplyLimitOptions {
  /** The budget, e.g. the client's limiter. */
  budget: VibeBudget
  /**
   * `drop` (default): answer the gesture `{ success: true }` without the vibe, which the service
   * would refuse. `send`: send it anyway (counted nowhere; the service may refuse it).
   */
  whenSpent?: WhenVibesSpent
}

/** Counts of gesture replies checked against the budget since the receiver started. */
export interface ReplyLimitStats {
  /** Replies whose vibe was counted against its user. */
  counted: number
  /** Replies whose vibe was over the budget: dropped, or sent anyway with `whenSpent: 'send'`. */
  overBudget: number
  /** Replies the budget could not be asked about (it threw): sent with their vibe. */
  unchecked: number
}

/** How often a spent budget is logged, at most. */
const LOG_INTERVAL_MS = 60_000

/** The `limits` option, resolved: the budget, the choice, the counts, and a log line once a minute. */
export class ReplyLimits {
  readonly budget: VibeBudget
  readonly whenSpent: WhenVibesSpent
  readonly #stats: ReplyLimitStats = { counted: 0, overBudget: 0, unchecked: 0 }
  readonly #logger: Logger
  readonly #now: () => number
  #loggedAt = Number.NEGATIVE_INFINITY
  #unlogged = 0

  constructor(options: ReplyLimitOptions, logger: Logger, now: () => number) {
    if (typeof options?.budget?.takeVibe !== 'function' || typeof options.budget.vibesLeft !== 'function')
      throw new RinghookConfigError(
        'limits needs `budget`: e.g. the limiter from createRateLimiter() of @ringhook/client',
      )
    if (options.whenSpent !== undefined && options.whenSpent !== 'drop' && options.whenSpent !== 'send')
      throw new RinghookConfigError(`limits.whenSpent must be 'drop' or 'send', got ${String(options.whenSpent)}`)
    this.budget = options.budget
    this.whenSpent = options.whenSpent ?? 'drop'
    this.#logger = logger
    this.#now = now
  }

  /** A copy of the counts. */
  stats(): ReplyLimitStats {
    return { ...this.#stats }
  }

  counted(): void {
    this.#stats.counted++
  }

  unchecked(error: unknown): void {
    this.#stats.unchecked++
    this.#logger.warn({ error: String(error) }, 'The vibe budget failed: the gesture reply was sent uncounted')
  }

  /** Counts a reply over budget; logs at most once a minute, with how many since the last line. */
  overBudget(): void {
    this.#stats.overBudget++
    this.#unlogged++
    const now = this.#now()
    if (now - this.#loggedAt < LOG_INTERVAL_MS) return
    this.#logger.warn(
      { over_budget: this.#unlogged, when_spent: this.whenSpent },
      this.whenSpent === 'drop'
        ? 'Gesture replies over their user’s vibe budget were answered without the vibe (limits.whenSpent)'
        : 'Gesture replies over their user’s vibe budget were sent anyway (limits.whenSpent)',
    )
    this.#loggedAt = now
    this.#unlogged = 0
  }
}
