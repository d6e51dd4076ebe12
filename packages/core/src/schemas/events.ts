import * as z from 'zod/mini'
import type { Closed } from './closed.js'
import { type CompiledCheck, compileCheck } from './compiled-check.js'
import { issueMessages } from './messages.js'

// The shape the service sends (`2026-11-22T10:00:00.000Z`), with each field in range: checked by
// one regex. Anything else Date.parse accepts is still a timestamp, only a slower one to check.
const ISO_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/

const isTimestamp = (value: string): boolean => ISO_DATE_TIME.test(value) || !Number.isNaN(Date.parse(value))

/** A timestamp the service sends as ISO 8601; kept as the string it was. */
export const isoTimestamp = z
  .string(issueMessages)
  .check(z.refine(isTimestamp, { message: 'must be an ISO 8601 timestamp' }))

/** A string of at least one character. */
const nonEmpty = () => z.string(issueMessages).check(z.minLength(1))

/**
 * Fields every webhook carries. The schemas are loose, so extra fields the service adds are kept at
 * run time; the event types below name only the documented ones (see `Closed` and `withExtras`).
 */
const envelope = {
  user_app_id: nonEmpty(),
  /** The app's own identifier for the user, present when the user linked their account. */
  external_user_id: z.optional(z.string(issueMessages)),
  app_id: nonEmpty(),
  timestamp: isoTimestamp,
}

const emptyData = z.looseObject({}, issueMessages)

/** `yes`, `no`, `dismiss` or `emoji:<emoji>`. */
export const notificationResponseSchema = z.union(
  [z.enum(['yes', 'no', 'dismiss'], issueMessages), z.templateLiteral(['emoji:', nonEmpty()], issueMessages)],
  { error: () => 'expected "yes", "no", "dismiss" or "emoji:<emoji>"' },
)

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

/** Any non-empty string, typed as a {@link GestureType}. */
export const gestureTypeSchema: z.ZodMiniType<GestureType, string> = nonEmpty()

/** `gesture`: the user performed a gesture on the ring while the app was active. */
export const gestureEventSchema = z.looseObject(
  {
    event: z.literal('gesture', issueMessages),
    /** The gesture performed. */
    gesture_type: gestureTypeSchema,
    ...envelope,
    data: emptyData,
  },
  issueMessages,
)

const lifecycle = <const N extends string>(name: N) =>
  z.looseObject({ event: z.literal(name, issueMessages), ...envelope, data: emptyData }, issueMessages)

/** `app.installed`: the user added the app. */
export const appInstalledEventSchema = lifecycle('app.installed')
/** `app.activated`: the app became active (a control app selected, a device's ring mode on). */
export const appActivatedEventSchema = lifecycle('app.activated')
/** `control.passive`: the ring went passive (screen locked, app backgrounded); gestures pause, vibes still work. */
export const controlPassiveEventSchema = lifecycle('control.passive')
/** `app.deactivated`: the app is no longer active. */
export const appDeactivatedEventSchema = lifecycle('app.deactivated')
/** `app.uninstalled`: the user removed the app. */
export const appUninstalledEventSchema = lifecycle('app.uninstalled')

/** `notification.responded`: the user answered a trigger that asked something; `data` says which and how. */
export const notificationRespondedEventSchema = z.looseObject(
  {
    event: z.literal('notification.responded', issueMessages),
    ...envelope,
    data: z.looseObject({ event_id: nonEmpty(), response: notificationResponseSchema }, issueMessages),
  },
  issueMessages,
)

/** Every event the service documents, discriminated on `event`. */
export const webhookEventSchema = z.discriminatedUnion(
  'event',
  [
    gestureEventSchema,
    appInstalledEventSchema,
    appActivatedEventSchema,
    controlPassiveEventSchema,
    appDeactivatedEventSchema,
    appUninstalledEventSchema,
    notificationRespondedEventSchema,
  ],
  issueMessages,
)

/** An event this version does not know (slot events, future additions): only `event` is required. */
export const unknownEventSchema = z.looseObject(
  {
    /** The event's name. */
    event: nonEmpty(),
  },
  issueMessages,
)

/** See {@link notificationResponseSchema}. */
export type NotificationResponse = z.infer<typeof notificationResponseSchema>
/** See {@link gestureEventSchema}. */
export type GestureEvent = Closed<z.infer<typeof gestureEventSchema>>
/** See {@link appInstalledEventSchema}. */
export type AppInstalledEvent = Closed<z.infer<typeof appInstalledEventSchema>>
/** See {@link appActivatedEventSchema}. */
export type AppActivatedEvent = Closed<z.infer<typeof appActivatedEventSchema>>
/** See {@link controlPassiveEventSchema}. */
export type ControlPassiveEvent = Closed<z.infer<typeof controlPassiveEventSchema>>
/** See {@link appDeactivatedEventSchema}. */
export type AppDeactivatedEvent = Closed<z.infer<typeof appDeactivatedEventSchema>>
/** See {@link appUninstalledEventSchema}. */
export type AppUninstalledEvent = Closed<z.infer<typeof appUninstalledEventSchema>>
/** See {@link notificationRespondedEventSchema}. */
export type NotificationRespondedEvent = Closed<z.infer<typeof notificationRespondedEventSchema>>
/** Every documented event, discriminated on `event`; each names exactly the spec's fields. */
export type WebhookEvent =
  | GestureEvent
  | AppInstalledEvent
  | AppActivatedEvent
  | ControlPassiveEvent
  | AppDeactivatedEvent
  | AppUninstalledEvent
  | NotificationRespondedEvent
/** An event this version does not know: nothing but `event` is promised, so every other field is `unknown`. */
export type UnknownEvent = z.infer<typeof unknownEventSchema>
/** The name of a documented event, e.g. `gesture` or `app.installed`. */
export type EventName = WebhookEvent['event']
/** The event type for one name. */
export type EventOf<N extends EventName> = Extract<WebhookEvent, { event: N }>

const documented = webhookEventSchema.def.options
const nameOf = (schema: (typeof documented)[number]) => schema.shape.event.def.values[0] as EventName
/** Names of every documented event, in the service's lifecycle order where one applies. */
export const EVENT_NAMES: readonly EventName[] = documented.map(nameOf)

const schemaByName = new Map<string, z.ZodMiniType<WebhookEvent>>(
  documented.map((o) => [nameOf(o), o as z.ZodMiniType<WebhookEvent>]),
)

/** Whether a name is one this version knows. */
export const isKnownEventName = (name: string): name is EventName => schemaByName.has(name)

// Each known event's schema as a predicate (schemas/compiled-check.ts), compiled on first use so
// that importing core stays cheap. `null`: the schema has a part the compiler does not know.
const compiledByName = new Map<string, CompiledCheck | null>()

function compiledFor(name: string, schema: z.ZodMiniType<WebhookEvent>): CompiledCheck | null {
  let check = compiledByName.get(name)
  if (check === undefined) {
    check = compileCheck(schema) ?? null
    compiledByName.set(name, check)
  }
  return check
}

/**
 * Parses a decoded payload: a known event against its schema, an unknown one leniently.
 *
 * A valid known event is answered by its schema's compiled predicate and returned as it came (the
 * same object, every field kept, as zod's loose parse would copy it): ~1.1 → 0.25 µs and no
 * garbage per delivery. Anything the predicate does not pass is parsed by zod, for its verdict and
 * its issues.
 */
export function parseEvent(
  value: unknown,
):
  | { ok: true; event: WebhookEvent; known: true }
  | { ok: true; event: UnknownEvent; known: false }
  | { ok: false; error: z.core.$ZodError } {
  const name = (value as { event?: unknown } | null)?.event
  const schema = typeof name === 'string' ? schemaByName.get(name) : undefined
  if (schema) {
    if (compiledFor(name as string, schema)?.(value)) return { ok: true, event: value as WebhookEvent, known: true }
    const parsed = schema.safeParse(value)
    return parsed.success ? { ok: true, event: parsed.data, known: true } : { ok: false, error: parsed.error }
  }
  const parsed = unknownEventSchema.safeParse(value)
  return parsed.success ? { ok: true, event: parsed.data, known: false } : { ok: false, error: parsed.error }
}
