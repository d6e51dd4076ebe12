import { type Attempt, type Awaitable, attempt, isThenable } from '../awaitable.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/index.js'
import type { ErrorHandler, HandlerContext } from './types.js'

/** A handler as a registry keeps it: of any event, with the context `C` its runner passes. */
export type StoredHandler<C extends HandlerContext = HandlerContext> = (
  event: WebhookEvent | UnknownEvent,
  context: C,
) => unknown

/**
 * The handlers registered on a receiver or a worker (`@ringhook/bullmq`), and how one event runs
 * through them: one failure rule for both. `C` is the context handlers get, `E` an error handler.
 */
export class Registry<C extends HandlerContext = HandlerContext, E = ErrorHandler> {
  readonly #byName = new Map<string, StoredHandler<C>[]>()
  readonly #any: StoredHandler<C>[] = []
  /** The `onError` handlers, in registration order: the runner reports failures to them. */
  readonly errorHandlers: E[] = []

  /** Registers a handler for each of the names. */
  add(names: readonly string[], handler: StoredHandler<C>): void {
    for (const name of names) {
      const list = this.#byName.get(name)
      if (list) list.push(handler)
      else this.#byName.set(name, [handler])
    }
  }

  /** Registers a handler for every event, run after the event's own handlers. */
  addAny(handler: StoredHandler<C>): void {
    this.#any.push(handler)
  }

  /** Removes a handler wherever it was registered. */
  remove(handler: unknown): void {
    for (const [name, list] of this.#byName)
      this.#byName.set(
        name,
        list.filter((h) => h !== handler),
      )
    const index = this.#any.indexOf(handler as StoredHandler<C>)
    if (index >= 0) this.#any.splice(index, 1)
  }

  /**
   * Runs the event's handlers, then the catch-all ones, in registration order, each one even if
   * an earlier one threw; waits for every one that returned a promise, so none is left unobserved.
   * The handlers failed if any of them threw or rejected: every failure is returned, in
   * registration order. Otherwise the reply is the first value, in registration order, that a
   * handler of this event name returned.
   */
  run(event: WebhookEvent | UnknownEvent, context: C): Awaitable<HandlersResult> {
    const named = this.#byName.get(event.event) ?? NONE
    // The usual receiver: one handler per event and no catch-all, so nothing to gather.
    if (named.length === 1 && this.#any.length === 0) return runAlone(named[0] as StoredHandler<C>, event, context)
    const outcomes: Awaitable<Attempt<unknown>>[] = []
    for (const handler of named) outcomes.push(attempt(() => handler(event, context)))
    for (const handler of this.#any) outcomes.push(attempt(() => handler(event, context)))
    // `attempt` turns each rejection into a value, so waiting for all of them drops none.
    if (outcomes.some(isThenable))
      return Promise.all(outcomes).then((settled) => this.#combine(settled, named.length, context))
    return this.#combine(outcomes as Attempt<unknown>[], named.length, context)
  }

  #combine(settled: readonly Attempt<unknown>[], named: number, context: C): HandlersResult {
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
export type HandlersResult =
  | {
      /** Every handler succeeded. */
      ok: true
      /** The reply: the first value, in registration order, a handler of the event's name returned. */
      value: unknown
    }
  | {
      /** A handler threw or rejected. */
      ok: false
      /** Every failure, in registration order. */
      errors: unknown[]
    }

/** The one handler of an event, called without a closure around it: this is every delivery's path. */
function runAlone<C extends HandlerContext>(
  handler: StoredHandler<C>,
  event: WebhookEvent | UnknownEvent,
  context: C,
): Awaitable<HandlersResult> {
  try {
    const value = handler(event, context)
    return isThenable(value) ? Promise.resolve(value).then(succeededAlone, failedAlone) : { ok: true, value }
  } catch (error) {
    return failedAlone(error)
  }
}

const succeededAlone = (value: unknown): HandlersResult => ({ ok: true, value })
const failedAlone = (error: unknown): HandlersResult => ({ ok: false, errors: [error] })

const NONE: readonly never[] = []

// A handler of some events, typed by the caller's interface: the registry calls it only with an
// event of a name it was registered for, so its event type is the registry's to trust.
type Registered<C> = (event: never, context: C) => unknown

/**
 * The `on`, `onAny`, `onError` and `off` methods of a receiver or a worker over its registry, each
 * returning `self()` so calls chain. The caller's interface types them (`Handler<N>`, `JobHandler<N>`).
 */
export function registering<C extends HandlerContext, E, S>(registry: Registry<C, E>, self: () => S) {
  return {
    on(name: string | readonly string[], handler: Registered<C>): S {
      registry.add(typeof name === 'string' ? [name] : name, handler as StoredHandler<C>)
      return self()
    },
    onAny(handler: Registered<C>): S {
      registry.addAny(handler as StoredHandler<C>)
      return self()
    },
    onError(handler: E): S {
      registry.errorHandlers.push(handler)
      return self()
    },
    off(handler: unknown): S {
      registry.remove(handler)
      return self()
    },
  }
}
