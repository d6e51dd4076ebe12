import type { Logger } from '../logger.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import type { DeliveryObserver, DeliveryOutcome } from './instrumentation.js'
import type { DecodedJson } from './json.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import type { DeliveryInfo, HandlerContext } from './types.js'
import type { VibeBudget } from './vibe-budget.js'

const NOT_YET_READ = new Uint8Array(0)
const NOT_YET_PARSED = Object.freeze({ event: '' }) as UnknownEvent
/** An exchange's response until a stage answers. */
export const NOT_YET_ANSWERED: WebhookResponse = Object.freeze({ status: 0, headers: {}, body: '' })

/**
 * One request on its way through the pipeline: what it arrived with, what stages found that later
 * ones, the handlers' context or the outlet read, and the answer (16 fields). What a stage only passes
 * to the next one is its return value, not a field here; the loop's own bookkeeping is the loop's (pipeline.ts).
 */
export class Exchange {
  readonly context: DeliveryContext
  /** When the request reached the receiver (its `now()`), and the instrumentation's observer, if one watches. */
  receivedAtMs = 0
  observer: DeliveryObserver | undefined = undefined
  /** The body as received (receive), decoded once: early for a resolver picking by app id (authenticate), or by parse. */
  bytes: Uint8Array = NOT_YET_READ
  json: DecodedJson | undefined = undefined
  /** The signed timestamp, the index of the secret that matched (authenticate), the event and its dedup key (parse). */
  signedAt = 0
  secretIndex = 0
  event: WebhookEvent | UnknownEvent = NOT_YET_PARSED
  key = ''
  /** The claim's token (dedup; none if the store failed under `'process'`); acknowledged at the deadline (handle). */
  token: string | undefined = undefined
  afterReply = false
  /** When the timed work of a stage began (`performance.now()`), read only with an observer. */
  startedAt = 0
  /** The answer (the first one given stands) and what it was. */
  response: WebhookResponse = NOT_YET_ANSWERED
  outcome: DeliveryOutcome = 'internal_error'

  constructor(
    readonly request: WebhookRequest,
    readonly hooks: HandleHooks,
    logger: Logger,
    budget?: VibeBudget,
  ) {
    this.context = new DeliveryContext(this, logger, budget)
  }
}

/** How long a stage waited for its work (`waited`, from the loop), or `undefined` when nothing was waited for. */
export const waitedFor = (exchange: Exchange, waited: boolean): number | undefined =>
  waited ? performance.now() - exchange.startedAt : undefined

/**
 * The context handed to handlers. Its logger, abort signal and delivery info are made on first
 * read: a child logger and an AbortController cost more than the rest of a delivery's bookkeeping,
 * and most handlers touch none of them (the info object and its Date were ~100 bytes of garbage a
 * delivery). Aborted before the signal is read, the signal is born aborted.
 */
export class DeliveryContext implements HandlerContext {
  readonly #facts: Exchange
  readonly #parent: Logger
  readonly #budget: VibeBudget | undefined
  #delivery: DeliveryInfo | undefined
  #logger: Logger | undefined
  #controller: AbortController | undefined
  #abortReason: { value: unknown } | undefined

  constructor(facts: Exchange, parent: Logger, budget: VibeBudget | undefined) {
    this.#facts = facts
    this.#parent = parent
    this.#budget = budget
  }

  get delivery(): DeliveryInfo {
    this.#delivery ??= deliveryInfo(this.#facts)
    return this.#delivery
  }

  get logger(): Logger {
    const facts = this.#facts
    this.#logger ??= this.#parent.child({
      event: facts.event.event,
      delivery_key: facts.key,
      timestamp: facts.signedAt,
    })
    return this.#logger
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController()
      if (this.#abortReason) this.#controller.abort(this.#abortReason.value)
    }
    return this.#controller.signal
  }

  /** The user's vibes left in the receiver's budget; undefined without `vibeBudget` or a user. */
  async vibesLeft(): Promise<number | undefined> {
    const budget = this.#budget
    const { app_id: appId, user_app_id: userAppId } = this.#facts.event as { app_id?: unknown; user_app_id?: unknown }
    if (!budget || typeof appId !== 'string' || typeof userAppId !== 'string') return undefined
    return budget.vibesLeft(appId, userAppId)
  }

  /** Tells handlers still running that the answer went out without them. */
  abort(reason: unknown): void {
    this.#abortReason ??= { value: reason }
    this.#controller?.abort(reason)
  }
}

function deliveryInfo(facts: Exchange): DeliveryInfo {
  const eventId = (facts.event.data as { event_id?: unknown } | undefined)?.event_id
  return {
    key: facts.key,
    eventId: typeof eventId === 'string' ? eventId : undefined,
    signedAt: facts.signedAt,
    receivedAt: new Date(facts.receivedAtMs),
    secretIndex: facts.secretIndex,
  }
}
