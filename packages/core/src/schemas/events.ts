import * as z from 'zod/mini'
import type { Closed } from './closed.js'
import { type Form, literal, looseObject, oneOf, optional, prefixed, refine, text, union, type ZodOf } from './form.js'
import { isTimestamp, ruleAsJsonSchema } from './refinements.js'
import type { UserState } from './user-state.js'

// The webhook payloads, each written once as a form (./form.ts): the receiver answers a valid
// delivery with the form's predicate and builds an event's zod schema only to word why a delivery
// was refused. The api entry exports the zod schemas (./event-schemas.ts).

/** Gestures the kit knows of: the ones the simulator in `@ringhook/testing` performs by default. */
export const KNOWN_GESTURE_TYPES = ['tap', 'double_tap', 'long_press', 'swipe_up', 'swipe_down'] as const
/** The gestures the kit knows of, for editors to suggest; see {@link GestureType}. */
export type KnownGestureType = (typeof KNOWN_GESTURE_TYPES)[number]
/**
 * A gesture's name. The service does not list its values (spec section 6, rule 7), so any string is
 * one; the known ones are spelled out so editors suggest them (`string & {}` keeps them from
 * collapsing into plain `string`).
 */
export type GestureType = KnownGestureType | (string & Record<never, never>)

/** An ISO 8601 timestamp, kept as the string it was. */
export const TIMESTAMP = refine(
  text(),
  isTimestamp,
  () => z.refine(isTimestamp, { message: 'must be an ISO 8601 timestamp from year 0000 to 6428' }),
  ruleAsJsonSchema({ rule: 'isTimestamp' }),
)

/** `yes`, `no`, `dismiss` or `emoji:<emoji>`. */
export const NOTIFICATION_RESPONSE = union(
  [oneOf(['yes', 'no', 'dismiss']), prefixed('emoji:')],
  'expected "yes", "no", "dismiss" or "emoji:<emoji>"',
)

/** Any non-empty string, typed as a {@link GestureType}. */
export const GESTURE_TYPE: Form<z.ZodMiniType<GestureType, string>> = text(1)

/**
 * Fields every webhook carries. The schemas are loose, so extra fields the service adds are kept at
 * run time; the event types below name only the documented ones (see `Closed` and `withExtras`).
 */
const envelope = {
  user_app_id: text(1),
  /** The app's own identifier for the user, present when the user linked their account. */
  external_user_id: optional(text()),
  app_id: text(1),
  timestamp: TIMESTAMP,
}

const lifecycle = <const N extends string>(name: N) =>
  looseObject({ event: literal(name), ...envelope, data: looseObject({}) })

/**
 * Each documented event, by name, in the service's lifecycle order where one applies. With
 * {@link EVENT_NOTES}, the one list of events: the types, the zod union, the published documents and
 * `@ringhook/testing`'s factories derive from it.
 */
export const EVENTS = {
  gesture: looseObject({
    event: literal('gesture'),
    /** The gesture performed. */
    gesture_type: GESTURE_TYPE,
    ...envelope,
    data: looseObject({}),
  }),
  'app.installed': lifecycle('app.installed'),
  'app.activated': lifecycle('app.activated'),
  'control.passive': lifecycle('control.passive'),
  'app.deactivated': lifecycle('app.deactivated'),
  'app.uninstalled': lifecycle('app.uninstalled'),
  'notification.responded': looseObject({
    event: literal('notification.responded'),
    ...envelope,
    data: looseObject({ event_id: text(1), response: NOTIFICATION_RESPONSE }),
  }),
}

/** An event this version does not know (slot events, future additions): only `event` is required. */
export const ANY_EVENT = looseObject({
  /** The event's name. */
  event: text(1),
})

type Events = typeof EVENTS
type Infer<F> = z.infer<ZodOf<F>>

/** See {@link "@ringhook/core/api"!notificationResponseSchema}. */
export type NotificationResponse = Infer<typeof NOTIFICATION_RESPONSE>
/** Every documented event, discriminated on `event`; each names exactly the spec's fields. */
export type WebhookEvent = { [N in keyof Events]: Closed<Infer<Events[N]>> }[keyof Events]
/** An event this version does not know: nothing but `event` is promised, so every other field is `unknown`. */
export type UnknownEvent = Infer<typeof ANY_EVENT>
/** The name of a documented event, e.g. `gesture` or `app.installed`. */
export type EventName = WebhookEvent['event']
/** The event type for one name. */
export type EventOf<N extends EventName> = Extract<WebhookEvent, { event: N }>

// The names each event had before `EventOf`: kept for 0.2, removed in 0.3.0. A new event gets none.
/** @deprecated Use `EventOf<'gesture'>`; removed in 0.3.0. */
export type GestureEvent = EventOf<'gesture'>
/** @deprecated Use `EventOf<'app.installed'>`; removed in 0.3.0. */
export type AppInstalledEvent = EventOf<'app.installed'>
/** @deprecated Use `EventOf<'app.activated'>`; removed in 0.3.0. */
export type AppActivatedEvent = EventOf<'app.activated'>
/** @deprecated Use `EventOf<'control.passive'>`; removed in 0.3.0. */
export type ControlPassiveEvent = EventOf<'control.passive'>
/** @deprecated Use `EventOf<'app.deactivated'>`; removed in 0.3.0. */
export type AppDeactivatedEvent = EventOf<'app.deactivated'>
/** @deprecated Use `EventOf<'app.uninstalled'>`; removed in 0.3.0. */
export type AppUninstalledEvent = EventOf<'app.uninstalled'>
/** @deprecated Use `EventOf<'notification.responded'>`; removed in 0.3.0. */
export type NotificationRespondedEvent = EventOf<'notification.responded'>

/** Names of every documented event, in the service's lifecycle order where one applies. */
export const EVENT_NAMES = Object.keys(EVENTS) as readonly EventName[]

/** An event's own fields: what a payload holds beyond `event` and the envelope every webhook carries. */
export type EventSample<N extends EventName> = Omit<EventOf<N>, 'event' | keyof typeof envelope>

/** What the list says of one event besides its form: see {@link EVENT_NOTES}. */
export interface EventNote<N extends EventName> {
  /** When the service sends it (spec section 6), in one sentence. */
  readonly about: string
  /** A valid value of its own fields: where a made-up payload of the event starts. */
  readonly sample: EventSample<N>
  /**
   * A lifecycle event only: the state the install is in once it happened. `@ringhook/users` keeps
   * a user's state by it and the simulator moves an install by it; other events leave it out.
   */
  readonly leadsTo?: InstallStatus
}

/** The states an install can be in: the API's three, or `uninstalled`. */
export type InstallStatus = UserState | 'uninstalled'

/**
 * The rest of the list of events, beside {@link EVENTS}: what each means, a sample of its own
 * fields and, for a lifecycle event, the state it leads to. The published documents
 * (`@ringhook/schemas`) describe each event with `about`, the factories of `@ringhook/testing` start
 * from `sample`, and `@ringhook/users` and the simulator follow `leadsTo`, so a new event is written
 * here and nowhere else (CONTRIBUTING.md has the recipe). Apart from EVENTS so that bundlers leave
 * it out of a receiver, which never reads it.
 */
export const EVENT_NOTES = {
  gesture: {
    about: 'The user performed a gesture on the ring while the app was active (control and device apps).',
    sample: { gesture_type: 'tap', data: {} },
  },
  'app.installed': { about: 'The user added the app.', sample: { data: {} }, leadsTo: 'inactive' },
  'app.activated': {
    about: 'The app became active (a control app selected in the hotbar, a device app’s ring mode on).',
    sample: { data: {} },
    leadsTo: 'active',
  },
  'control.passive': {
    about:
      'The ring entered passive mode (screen locked, app backgrounded); gestures pause, vibes still work. Control apps only.',
    sample: { data: {} },
    leadsTo: 'passive',
  },
  'app.deactivated': {
    about: 'The app is no longer active (the user switched to another control app, or ring mode off).',
    sample: { data: {} },
    leadsTo: 'inactive',
  },
  'app.uninstalled': { about: 'The user removed the app.', sample: { data: {} }, leadsTo: 'uninstalled' },
  'notification.responded': {
    about: 'The user answered a vibe triggered with a response_config; `data` holds its `event_id` and the `response`.',
    sample: { data: { event_id: 'evt_sample', response: 'yes' } },
  },
} satisfies { readonly [N in EventName]: EventNote<N> }

type Notes = typeof EVENT_NOTES

/** A lifecycle event's name: one whose note says the state it leads to. */
export type LifecycleEventName = {
  [N in EventName]: Notes[N] extends { leadsTo: InstallStatus } ? N : never
}[EventName]

/** The lifecycle events, in the service's order: the events whose note has `leadsTo`. */
export const LIFECYCLE_EVENT_NAMES: readonly LifecycleEventName[] = EVENT_NAMES.filter(
  (name): name is LifecycleEventName => 'leadsTo' in EVENT_NOTES[name],
)

/** The state an install is in after a lifecycle event. */
export const stateAfter = (name: LifecycleEventName): InstallStatus => EVENT_NOTES[name].leadsTo

const KNOWN_NAMES: ReadonlySet<string> = new Set(EVENT_NAMES)

/** Whether a name is one this version knows. */
export const isKnownEventName = (name: string): name is EventName => KNOWN_NAMES.has(name)

/**
 * Parses a decoded payload: a known event against its schema, an unknown one leniently.
 *
 * A valid event passes its form's predicate (./form.ts) and is returned as it came: the same
 * object, every field kept, as zod's loose parse would copy it, without building the zod schema
 * (~1.1 → 0.25 µs, no garbage per delivery). Anything else is parsed by zod, for its verdict and
 * its issues.
 */
export function parseEvent(
  value: unknown,
):
  | { ok: true; event: WebhookEvent; known: true }
  | { ok: true; event: UnknownEvent; known: false }
  | { ok: false; error: z.core.$ZodError } {
  const name = (value as { event?: unknown } | null)?.event
  if (typeof name === 'string' && isKnownEventName(name)) {
    const event: Form = EVENTS[name]
    if (event.accepts(value)) return { ok: true, event: value as WebhookEvent, known: true }
    const parsed = event.zod().safeParse(value)
    return parsed.success
      ? { ok: true, event: parsed.data as WebhookEvent, known: true }
      : { ok: false, error: parsed.error }
  }
  if (ANY_EVENT.accepts(value)) return { ok: true, event: value as UnknownEvent, known: false }
  const parsed = ANY_EVENT.zod().safeParse(value)
  return parsed.success ? { ok: true, event: parsed.data, known: false } : { ok: false, error: parsed.error }
}
