import type { Logger } from '../logger.js'
import type { DeliveryInfo, HandlerContext } from './types.js'

/**
 * The context handed to handlers. Its logger and abort signal are made on first read: a child
 * logger and an AbortController cost more than the rest of a delivery's bookkeeping, and most
 * handlers touch neither. Aborted before the signal is read, the signal is born aborted.
 */
export class DeliveryContext implements HandlerContext {
  readonly delivery: DeliveryInfo
  readonly #parent: Logger
  readonly #event: string
  #logger: Logger | undefined
  #controller: AbortController | undefined
  #abortReason: { value: unknown } | undefined

  constructor(delivery: DeliveryInfo, parent: Logger, event: string) {
    this.delivery = delivery
    this.#parent = parent
    this.#event = event
  }

  get logger(): Logger {
    this.#logger ??= this.#parent.child({
      event: this.#event,
      delivery_key: this.delivery.key,
      timestamp: this.delivery.signedAt,
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

  /** Tells handlers still running that the answer went out without them. */
  abort(reason: unknown): void {
    this.#abortReason ??= { value: reason }
    this.#controller?.abort(reason)
  }
}
