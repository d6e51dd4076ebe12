import * as z from 'zod/mini'
import type { Closed } from './closed.js'
import { type Form, literal, looseObject, oneOf, optional, prefixed, refine, text, union, type ZodOf } from './form.js'
import { isTimestamp, ruleAsJsonSchema } from './refinements.js'

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
/** See {@link "@ringhook/core/api"!gestureEventSchema}. */
export type GestureEvent = Closed<Infer<Events['gesture']>>
/** See {@link "@ringhook/core/api"!appInstalledEventSchema}. */
export type AppInstalledEvent = Closed<Infer<Events['app.installed']>>
/** See {@link "@ringhook/core/api"!appActivatedEventSchema}. */
export type AppActivatedEvent = Closed<Infer<Events['app.activated']>>
/** See {@link "@ringhook/core/api"!controlPassiveEventSchema}. */
export type ControlPassiveEvent = Closed<Infer<Events['control.passive']>>
/** See {@link "@ringhook/core/api"!appDeactivatedEventSchema}. */
export type AppDeactivatedEvent = Closed<Infer<Events['app.deactivated']>>
/** See {@link "@ringhook/core/api"!appUninstalledEventSchema}. */
export type AppUninstalledEvent = Closed<Infer<Events['app.uninstalled']>>
/** See {@link "@ringhook/core/api"!notificationRespondedEventSchema}. */
export type NotificationRespondedEvent = Closed<Infer<Events['notification.responded']>>
/** Every documented event, discriminated on `event`; each names exactly the spec's fields. */
export type WebhookEvent = { [N in keyof Events]: Closed<Infer<Events[N]>> }[keyof Events]
/** An event this version does not know: nothing but `event` is promised, so every other field is `unknown`. */
export type UnknownEvent = Infer<typeof ANY_EVENT>
/** The name of a documented event, e.g. `gesture` or `app.installed`. */
export type EventName = WebhookEvent['event']
/** The event type for one name. */
export type EventOf<N extends EventName> = Extract<WebhookEvent, { event: N }>

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
}

/**
 * The rest of the list of events, beside {@link EVENTS}: what each means and a sample of its own
 * fields. The published documents (`@ringhook/schemas`) describe each event with `about`, and the
 * factories of `@ringhook/testing` start from `sample`, so a new event is written here and nowhere
 * else. Apart from EVENTS so that bundlers leave it out of a receiver, which never reads it.
 */
export const EVENT_NOTES: { readonly [N in EventName]: EventNote<N> } = {
  gesture: {
    about: 'The user performed a gesture on the ring while the app was active (control and device apps).',
    sample: { gesture_type: 'tap', data: {} },
  },
  'app.installed': { about: 'The user added the app.', sample: { data: {} } },
  'app.activated': {
    about: 'The app became active (a control app selected in the hotbar, a device app’s ring mode on).',
    sample: { data: {} },
  },
  'control.passive': {
    about:
      'The ring entered passive mode (screen locked, app backgrounded); gestures pause, vibes still work. Control apps only.',
    sample: { data: {} },
  },
  'app.deactivated': {
    about: 'The app is no longer active (the user switched to another control app, or ring mode off).',
    sample: { data: {} },
  },
  'app.uninstalled': { about: 'The user removed the app.', sample: { data: {} } },
  'notification.responded': {
    about: 'The user answered a vibe triggered with a response_config; `data` holds its `event_id` and the `response`.',
    sample: { data: { event_id: 'evt_sample', response: 'yes' } },
  },
}

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
