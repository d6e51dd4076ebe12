import type { Logger } from '../logger.js'
import type { DeliveryInfo, HandlerContext } from './types.js'
import type { VibeBudget } from './vibe-budget.js'

/** What the pipeline knows of a delivery when its handlers run: {@link DeliveryInfo} before it is built. */
export interface DeliveryFacts {
  readonly key: string
  readonly event: { readonly event: string; readonly data?: unknown }
  readonly signedAt: number
  readonly receivedAtMs: number
  readonly secretIndex: number
  /** The receiver's vibe budget (option `limits`), if any. */
  readonly budget: VibeBudget | undefined
}

/**
 * The context handed to handlers. Its logger, abort signal and delivery info are made on first
 * read: a child logger and an AbortController cost more than the rest of a delivery's bookkeeping,
 * and most handlers touch none of them (the info object and its Date were ~100 bytes of garbage a
 * delivery). Aborted before the signal is read, the signal is born aborted.
 */
export class DeliveryContext implements HandlerContext {
  readonly #facts: DeliveryFacts
  readonly #parent: Logger
  #delivery: DeliveryInfo | undefined
  #logger: Logger | undefined
  #controller: AbortController | undefined
  #abortReason: { value: unknown } | undefined

  constructor(facts: DeliveryFacts, parent: Logger) {
    this.#facts = facts
    this.#parent = parent
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

  /** The user's vibes left in the receiver's budget; undefined without `limits` or a user. */
  async vibesLeft(): Promise<number | undefined> {
    const { budget, event } = this.#facts
    const { app_id: appId, user_app_id: userAppId } = event as { app_id?: unknown; user_app_id?: unknown }
    if (!budget || typeof appId !== 'string' || typeof userAppId !== 'string') return undefined
    return budget.vibesLeft(appId, userAppId)
  }

  /** Tells handlers still running that the answer went out without them. */
  abort(reason: unknown): void {
    this.#abortReason ??= { value: reason }
    this.#controller?.abort(reason)
  }
}

function deliveryInfo(facts: DeliveryFacts): DeliveryInfo {
  const eventId = (facts.event.data as { event_id?: unknown } | undefined)?.event_id
  return {
    key: facts.key,
    eventId: typeof eventId === 'string' ? eventId : undefined,
    signedAt: facts.signedAt,
    receivedAt: new Date(facts.receivedAtMs),
    secretIndex: facts.secretIndex,
  }
}
