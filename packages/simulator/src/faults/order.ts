import type { WebhookEvent } from '@ringhook/core'
import { LIFECYCLE_EVENT_NAMES } from '@ringhook/core/internal'
import type { Delivery } from '../model.js'
import type { FaultInjector } from './injector.js'
import type { InjectedFault } from './kinds.js'

const LIFECYCLE: ReadonlySet<string> = new Set(LIFECYCLE_EVENT_NAMES)
/** How long a held-back event waits for the install's next one before it is sent anyway (service time). */
export const REORDER_HOLD_MS = 2000

const wholeSecond = (iso: string) => `${iso.slice(0, 19)}Z`
const sameKind = (a: WebhookEvent, b: WebhookEvent) =>
  a.event === b.event && (a as { gesture_type?: string }).gesture_type === (b as { gesture_type?: string }).gesture_type

/**
 * The faults of a delivery's place among its install's events: `reorder` holds a lifecycle event
 * back until the install's next event has gone, and `same_second` gives an event a whole-second
 * timestamp that the install's next distinct event shares.
 */
export class OrderFaults {
  /** Per install: the timestamp the next distinct event takes, after a `same_second` hit. */
  readonly #sharedStamp = new Map<string, { stamp: string; after: WebhookEvent }>()

  constructor(private readonly faults: FaultInjector) {}

  /** Rewrites the payload's timestamp when `same_second` applies; returns what was injected. */
  stamp(delivery: Delivery): InjectedFault | null {
    const key = delivery.user_app_id
    const shared = this.#sharedStamp.get(key)
    const payload = delivery.payload as WebhookEvent & { timestamp: string }
    if (shared && !sameKind(shared.after, payload)) {
      this.#sharedStamp.delete(key)
      payload.timestamp = shared.stamp
      return {
        fault: 'same_second',
        attempt: null,
        detail: `shares the timestamp ${shared.stamp} of the previous event`,
      }
    }
    if (!this.faults.hits('same_second')) return null
    payload.timestamp = wholeSecond(payload.timestamp)
    this.#sharedStamp.set(key, { stamp: payload.timestamp, after: structuredClone(payload) })
    return {
      fault: 'same_second',
      attempt: null,
      detail: `timestamp cut to the second (${payload.timestamp}); the install's next distinct event gets the same`,
    }
  }

  /** Whether to hold this lifecycle event back until the install's next event has gone. */
  hold(delivery: Delivery): InjectedFault | null {
    if (!this.faults.hits('reorder', LIFECYCLE.has(delivery.event))) return null
    return { fault: 'reorder', attempt: null, detail: "held back until the install's next event has been sent" }
  }

  clear(): void {
    this.#sharedStamp.clear()
  }
}
