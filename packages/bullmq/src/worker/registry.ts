import type { UnknownEvent, WebhookEvent } from '@ringhook/core'
import type { AnyJobHandler, JobContext, JobErrorHandler } from './types.js'

type StoredHandler = (event: WebhookEvent | UnknownEvent, context: JobContext) => unknown

/** A worker's handlers, and how one event runs through them. */
export class JobRegistry {
  readonly #byName = new Map<string, StoredHandler[]>()
  readonly #any: AnyJobHandler[] = []
  readonly errorHandlers: JobErrorHandler[] = []

  add(names: readonly string[], handler: StoredHandler): void {
    for (const name of names) this.#byName.set(name, [...(this.#byName.get(name) ?? []), handler])
  }

  addAny(handler: AnyJobHandler): void {
    this.#any.push(handler)
  }

  remove(handler: unknown): void {
    for (const [name, list] of this.#byName)
      this.#byName.set(
        name,
        list.filter((h) => h !== handler),
      )
    const index = this.#any.indexOf(handler as AnyJobHandler)
    if (index >= 0) this.#any.splice(index, 1)
  }

  /** Runs the event's handlers and the catch-all ones, all started at once; rejects with the first failure. */
  async run(event: WebhookEvent | UnknownEvent, context: JobContext): Promise<void> {
    const handlers = [...(this.#byName.get(event.event) ?? []), ...this.#any]
    // A handler that throws synchronously becomes a rejection like the others.
    await Promise.all(handlers.map(async (handler) => handler(event, context)))
  }
}
