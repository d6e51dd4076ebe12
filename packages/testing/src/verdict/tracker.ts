import type { Receiver } from '@ringhook/core'
import { canonicalJson } from './canonical.js'

/** An event as a handler gets it: any webhook payload, known to this version or not. */
export interface TrackedEvent {
  /** The event's name, e.g. `gesture`. */
  event: string
  [field: string]: unknown
}

/** How often one event's handlers ran. */
export interface HandledEvent {
  /** The event, as the handler got it. */
  event: TrackedEvent
  /** How many times the handlers ran for it. */
  runs: number
}

/** What a simulator (or anything) says was delivered: its deliveries and their payloads. */
export interface DeliverySource {
  /** The simulator's log (`sim.log`). */
  log: {
    /** Every delivery, with its status and payload. */
    deliveries(): ReadonlyArray<{ id: string; status: string; payload: object }>
  }
}

/** A delivery acknowledged whose event no handler ran for. */
export interface MissingEvent {
  /** The delivery's id. */
  delivery_id: string
  /** Its event's name. */
  event: string
}

/** The app's side of the verdict: which events ran more than once, and which delivered ones never ran. */
export interface HandlerVerdict {
  /** True when every event ran exactly once (and, given a source, every delivered one ran). */
  ok: boolean
  /** Events whose handlers ran more than once. */
  repeated: HandledEvent[]
  /** Deliveries the source acknowledged whose event no handler ran for. */
  missing: MissingEvent[]
  /** One line per problem, for a test failure message. */
  problems: string[]
}

/** Counts handler runs per event: the app's side of "each event handled exactly once". */
export interface HandlerTracker {
  /** Records one run of the handlers for `event` (call it from a handler of your own app). */
  record(event: TrackedEvent): void
  /** Every event seen, with its run count, in the order first seen. */
  handled(): HandledEvent[]
  /** The verdict; with `source` (e.g. the simulator), also every delivered event must have run. */
  verdict(source?: DeliverySource): HandlerVerdict
  /** Stops tracking (for {@link trackHandlers}: removes its handler from the receiver). */
  stop(): void
}

/**
 * A tracker fed by hand: call `record(event)` where your app does its work, for an app that is not a
 * ringhook receiver. Events are told apart by their whole payload.
 *
 * @example
 * const tracker = createHandlerTracker()
 * // where the app does its work, once the request is verified:
 * tracker.record({ event: 'app.installed', user_app_id: 'ua_1', timestamp: '2026-01-01T00:00:00Z' })
 * console.log(tracker.verdict().problems) // [] while each event ran once
 */
export function createHandlerTracker(onStop: () => void = () => {}): HandlerTracker {
  const runs = new Map<string, HandledEvent>()
  return {
    record(event) {
      const key = canonicalJson(event)
      const known = runs.get(key)
      if (known) known.runs++
      else runs.set(key, { event: structuredClone(event), runs: 1 })
    },
    handled: () => [...runs.values()].map((item) => structuredClone(item)),
    verdict: (source) => judge(runs, source),
    stop: onStop,
  }
}

/**
 * Tracks a ringhook receiver's handler runs through its public `onAny`: every event that reaches
 * the handlers (after verification and deduplication) counts one run.
 *
 * @example
 * const tracker = trackHandlers(receiver)
 * // ... the simulator delivers, with faults ...
 * console.log(tracker.verdict().repeated) // events whose handlers ran more than once
 */
export function trackHandlers(receiver: Receiver): HandlerTracker {
  const handler = (event: TrackedEvent) => tracker.record(event)
  const tracker = createHandlerTracker(() => void receiver.off(handler as Parameters<Receiver['off']>[0]))
  receiver.onAny(handler as Parameters<Receiver['onAny']>[0])
  return tracker
}

function judge(runs: Map<string, HandledEvent>, source: DeliverySource | undefined): HandlerVerdict {
  const repeated = [...runs.values()].filter((item) => item.runs > 1).map((item) => structuredClone(item))
  const missing = (source?.log.deliveries() ?? [])
    .filter((delivery) => delivery.status === 'delivered' && !runs.has(canonicalJson(delivery.payload)))
    .map((delivery) => ({ delivery_id: delivery.id, event: (delivery.payload as TrackedEvent).event }))
  const problems = [
    ...repeated.map((item) => `${describe(item.event)} was handled ${item.runs} times`),
    ...missing.map((item) => `${item.event} of ${item.delivery_id} was delivered but never handled`),
  ]
  return { ok: problems.length === 0, repeated, missing, problems }
}

function describe(event: TrackedEvent): string {
  const detail = [event.gesture_type, event.user_app_id, event.timestamp].filter((part) => typeof part === 'string')
  return `${event.event} (${detail.join(', ')})`
}
