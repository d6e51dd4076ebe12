import type { UnknownEvent, WebhookEvent } from '../schemas/index.js'
import { isThenable } from './awaitable.js'
import type { AnyHandler, ErrorHandler, HandlerContext } from './types.js'

type StoredHandler = (event: WebhookEvent | UnknownEvent, context: HandlerContext) => unknown

/** The handlers registered on a receiver, and how one event runs through them. */
export class Registry {
  readonly #byName = new Map<string, StoredHandler[]>()
  readonly #any: AnyHandler[] = []
  readonly errorHandlers: ErrorHandler[] = []

  add(names: readonly string[], handler: StoredHandler): void {
    for (const name of names) {
      const list = this.#byName.get(name)
      if (list) list.push(handler)
      else this.#byName.set(name, [handler])
    }
  }

  addAny(handler: AnyHandler): void {
    this.#any.push(handler)
  }

  remove(handler: unknown): void {
    for (const [name, list] of this.#byName)
      this.#byName.set(
        name,
        list.filter((h) => h !== handler),
      )
    const index = this.#any.indexOf(handler as AnyHandler)
    if (index >= 0) this.#any.splice(index, 1)
  }

  /**
   * Runs the event's handlers, then the catch-all ones, all started at once. Resolves with the
   * reply: the first value, in registration order, returned by a handler of this event name.
   * Rejects with the first failure.
   */
  run(event: WebhookEvent | UnknownEvent, context: HandlerContext): unknown {
    const named = this.#byName.get(event.event) ?? NONE
    // The usual receiver: one handler per event and no catch-all, so nothing to gather.
    if (named.length === 1 && this.#any.length === 0) return (named[0] as StoredHandler)(event, context)
    const results: unknown[] = []
    for (const handler of named) results.push(handler(event, context))
    for (const handler of this.#any) results.push(handler(event, context))
    if (results.some(isThenable))
      return Promise.all(results).then((settled) => this.#reply(settled, named.length, context))
    return this.#reply(results, named.length, context)
  }

  #reply(settled: unknown[], named: number, context: HandlerContext): unknown {
    const replies = settled.slice(0, named).filter((value) => value !== undefined)
    if (replies.length > 1) {
      context.logger.warn(
        { handlers: replies.length },
        'Several handlers returned a reply; the first registered one is sent',
      )
    }
    return replies[0]
  }
}

const NONE: readonly StoredHandler[] = []
