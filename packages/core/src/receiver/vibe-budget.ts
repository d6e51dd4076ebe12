import type { StoredReply } from '../dedup/store.js'
import { RinghookConfigError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'

// One idea, one family of names: the receiver's `vibeBudget` option (`VibeBudgetOptions`), the budget it
// spends (`VibeBudget`), what happens once it is spent (`VibeBudgetWhenSpent`), what it counted
// (`VibeBudgetStats`), and the spending itself (`VibeBudgetSpender`, this file). The names of 0.1
// (`limits`, `ReplyLimitOptions`, `WhenVibesSpent`, `ReplyLimitStats`) stay as deprecated aliases until 0.3.0.

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
export type VibeBudgetWhenSpent = 'drop' | 'send'

/** The receiver's `vibeBudget` option: whose budget replies spend, and what happens when it is spent. */
export interface VibeBudgetOptions {
  /** The budget, e.g. the client's limiter. */
  budget: VibeBudget
  /**
   * `drop` (default): answer the gesture `{ success: true }` without the vibe, which the service
   * would refuse. `send`: send it anyway (counted nowhere; the service may refuse it).
   */
  whenSpent?: VibeBudgetWhenSpent
}

/** Counts of gesture replies checked against the budget since the receiver started. */
export interface VibeBudgetStats {
  /** Replies whose vibe was counted against its user. */
  counted: number
  /** Replies whose vibe was over the budget: dropped, or sent anyway with `whenSpent: 'send'`. */
  overBudget: number
  /** Replies the budget could not be asked about (it threw): sent with their vibe. */
  unchecked: number
}

/** How often a spent budget is logged, at most. */
const LOG_INTERVAL_MS = 60_000

/** @deprecated Use {@link VibeBudgetWhenSpent}; removed in 0.3.0. */
export type WhenVibesSpent = VibeBudgetWhenSpent
/** @deprecated Use {@link VibeBudgetOptions}; removed in 0.3.0. */
export type ReplyLimitOptions = VibeBudgetOptions
/** @deprecated Use {@link VibeBudgetStats}; removed in 0.3.0. */
export type ReplyLimitStats = VibeBudgetStats

/** What the handlers earned, as far as the budget reads it (stage.ts's `HandlerOutcome`, not imported: a circle). */
type Earned = { readonly ok: true; readonly reply: StoredReply } | { readonly ok: false }

/** The reply sent in place of a vibe over its user's budget. */
const WITHOUT_VIBE: StoredReply = Object.freeze({ status: 200, body: '{"success":true}' })

/** The `vibeBudget` option, resolved: the budget, the choice, the counts, and a log line once a minute. */
export class VibeBudgetSpender {
  readonly budget: VibeBudget
  readonly whenSpent: VibeBudgetWhenSpent
  readonly #stats: VibeBudgetStats = { counted: 0, overBudget: 0, unchecked: 0 }
  readonly #logger: Logger
  readonly #now: () => number
  /** The option's name as the app wrote it (`vibeBudget`, or the deprecated `limits`), for messages. */
  readonly #name: string
  #loggedAt = Number.NEGATIVE_INFINITY
  #unlogged = 0

  constructor(options: VibeBudgetOptions, logger: Logger, now: () => number, name = 'vibeBudget') {
    if (typeof options?.budget?.takeVibe !== 'function' || typeof options.budget.vibesLeft !== 'function')
      throw new RinghookConfigError(
        `${name} needs \`budget\`: e.g. the limiter from createRateLimiter() of @ringhook/client`,
      )
    if (options.whenSpent !== undefined && options.whenSpent !== 'drop' && options.whenSpent !== 'send')
      throw new RinghookConfigError(`${name}.whenSpent must be 'drop' or 'send', got ${String(options.whenSpent)}`)
    this.budget = options.budget
    this.whenSpent = options.whenSpent ?? 'drop'
    this.#logger = logger
    this.#now = now
    this.#name = name
  }

  /** A copy of the counts. */
  stats(): VibeBudgetStats {
    return { ...this.#stats }
  }

  /**
   * Spends one of the user's vibes on a gesture reply that carries one. Asked once per handled
   * delivery, before the reply is stored: a retry answered from the dedup store replays the stored
   * reply and is never counted again.
   */
  spend<O extends Earned>(
    event: WebhookEvent | UnknownEvent,
    outcome: O,
  ): O | { ok: true; reply: StoredReply } | Promise<O | { ok: true; reply: StoredReply }> {
    if (!outcome.ok || event.event !== 'gesture' || !outcome.reply.body.includes('"vibe"')) return outcome
    const { app_id: appId, user_app_id: userAppId } = event as { app_id: string; user_app_id: string }
    return Promise.resolve()
      .then(() => this.budget.takeVibe(appId, userAppId))
      .then(
        (taken) => {
          if (taken) {
            this.#stats.counted++
            return outcome
          }
          this.#overBudget()
          return this.whenSpent === 'send' ? outcome : { ok: true as const, reply: WITHOUT_VIBE }
        },
        (error: unknown) => {
          this.#unchecked(error)
          return outcome
        },
      )
  }

  #unchecked(error: unknown): void {
    this.#stats.unchecked++
    this.#logger.warn({ error: String(error) }, 'The vibe budget failed: the gesture reply was sent uncounted')
  }

  /** Counts a reply over budget; logs at most once a minute, with how many since the last line. */
  #overBudget(): void {
    this.#stats.overBudget++
    this.#unlogged++
    const now = this.#now()
    if (now - this.#loggedAt < LOG_INTERVAL_MS) return
    this.#logger.warn(
      { over_budget: this.#unlogged, when_spent: this.whenSpent },
      this.whenSpent === 'drop'
        ? `Gesture replies over their user’s vibe budget were answered without the vibe (${this.#name}.whenSpent)`
        : `Gesture replies over their user’s vibe budget were sent anyway (${this.#name}.whenSpent)`,
    )
    this.#loggedAt = now
    this.#unlogged = 0
  }
}
