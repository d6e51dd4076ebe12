import { type Attempt, type Awaitable, andThen, attempt, failed, isThenable, outcome } from '../awaitable.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/index.js'
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
   * Runs the event's handlers, then the catch-all ones, in registration order, each one even if
   * an earlier one threw; waits for every one that returned a promise, so none is left unobserved.
   * The handlers failed if any of them threw or rejected: every failure is returned, in
   * registration order. Otherwise the reply is the first value, in registration order, that a
   * handler of this event name returned.
   */
  run(event: WebhookEvent | UnknownEvent, context: HandlerContext): Awaitable<HandlersResult> {
    const named = this.#byName.get(event.event) ?? NONE
    // The usual receiver: one handler per event and no catch-all, so nothing to gather.
    if (named.length === 1 && this.#any.length === 0) return runAlone(named[0] as StoredHandler, event, context)
    const outcomes: Awaitable<Attempt<unknown>>[] = []
    for (const handler of named) outcomes.push(attempt(() => handler(event, context)))
    for (const handler of this.#any) outcomes.push(attempt(() => handler(event, context)))
    // `attempt` turns each rejection into a value, so waiting for all of them drops none.
    if (outcomes.some(isThenable))
      return Promise.all(outcomes).then((settled) => this.#combine(settled, named.length, context))
    return this.#combine(outcomes as Attempt<unknown>[], named.length, context)
  }

  #combine(settled: readonly Attempt<unknown>[], named: number, context: HandlerContext): HandlersResult {
    const errors: unknown[] = []
    for (const outcome of settled) if (!outcome.ok) errors.push(outcome.error)
    if (errors.length > 0) return { ok: false, errors }
    const replies: unknown[] = []
    for (const outcome of settled.slice(0, named))
      if (outcome.ok && outcome.value !== undefined) replies.push(outcome.value)
    if (replies.length > 1) {
      context.logger.warn(
        { handlers: replies.length },
        'Several handlers returned a reply; the first registered one is sent',
      )
    }
    return { ok: true, value: replies[0] }
  }
}

/** What the handlers of a delivery came to: a reply (or nothing), or every failure. */
export type HandlersResult = { ok: true; value: unknown } | { ok: false; errors: unknown[] }

/** The one handler of an event, called without a closure around it: this is every delivery's path. */
function runAlone(
  handler: StoredHandler,
  event: WebhookEvent | UnknownEvent,
  context: HandlerContext,
): Awaitable<HandlersResult> {
  let ran: Awaitable<Attempt<unknown>>
  try {
    ran = outcome(handler(event, context))
  } catch (error) {
    ran = failed(error)
  }
  return andThen(ran, alone)
}

const alone = (outcome: Attempt<unknown>): HandlersResult =>
  outcome.ok ? outcome : { ok: false, errors: [outcome.error] }

const NONE: readonly StoredHandler[] = []
