import { z } from 'zod'

// The shape the service sends (`2026-11-22T10:00:00.000Z`), with each field in range: checked by
// one regex. Anything else Date.parse accepts is still a timestamp, only a slower one to check.
const ISO_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/

const isTimestamp = (value: string): boolean => ISO_DATE_TIME.test(value) || !Number.isNaN(Date.parse(value))

/** A timestamp the service sends as ISO 8601; kept as the string it was. */
export const isoTimestamp = z.string().refine(isTimestamp, { message: 'must be an ISO 8601 timestamp' })

/** Fields every webhook carries. Extra fields are kept (loose objects) so new ones reach handlers. */
const envelope = {
  user_app_id: z.string().min(1),
  /** The app's own identifier for the user, present when the user linked their account. */
  external_user_id: z.string().optional(),
  app_id: z.string().min(1),
  timestamp: isoTimestamp,
}

const emptyData = z.looseObject({})

/** `yes`, `no`, `dismiss` or `emoji:<emoji>`. */
export const notificationResponseSchema = z.union([
  z.enum(['yes', 'no', 'dismiss']),
  z.templateLiteral(['emoji:', z.string().min(1)]),
])

export const gestureEventSchema = z.looseObject({
  event: z.literal('gesture'),
  /** The gesture performed; the service does not list its values, so any non-empty string is accepted. */
  gesture_type: z.string().min(1),
  ...envelope,
  data: emptyData,
})

const lifecycle = <const N extends string>(name: N) =>
  z.looseObject({ event: z.literal(name), ...envelope, data: emptyData })

export const appInstalledEventSchema = lifecycle('app.installed')
export const appActivatedEventSchema = lifecycle('app.activated')
export const controlPassiveEventSchema = lifecycle('control.passive')
export const appDeactivatedEventSchema = lifecycle('app.deactivated')
export const appUninstalledEventSchema = lifecycle('app.uninstalled')

export const notificationRespondedEventSchema = z.looseObject({
  event: z.literal('notification.responded'),
  ...envelope,
  data: z.looseObject({ event_id: z.string().min(1), response: notificationResponseSchema }),
})

/** Every event the service documents, discriminated on `event`. */
export const webhookEventSchema = z.discriminatedUnion('event', [
  gestureEventSchema,
  appInstalledEventSchema,
  appActivatedEventSchema,
  controlPassiveEventSchema,
  appDeactivatedEventSchema,
  appUninstalledEventSchema,
  notificationRespondedEventSchema,
])

/** An event this version does not know (slot events, future additions): only `event` is required. */
export const unknownEventSchema = z.looseObject({ event: z.string().min(1) })

export type NotificationResponse = z.infer<typeof notificationResponseSchema>
export type GestureEvent = z.infer<typeof gestureEventSchema>
export type AppInstalledEvent = z.infer<typeof appInstalledEventSchema>
export type AppActivatedEvent = z.infer<typeof appActivatedEventSchema>
export type ControlPassiveEvent = z.infer<typeof controlPassiveEventSchema>
export type AppDeactivatedEvent = z.infer<typeof appDeactivatedEventSchema>
export type AppUninstalledEvent = z.infer<typeof appUninstalledEventSchema>
export type NotificationRespondedEvent = z.infer<typeof notificationRespondedEventSchema>
export type WebhookEvent = z.infer<typeof webhookEventSchema>
export type UnknownEvent = z.infer<typeof unknownEventSchema>
export type EventName = WebhookEvent['event']
/** The event type for one name. */
export type EventOf<N extends EventName> = Extract<WebhookEvent, { event: N }>

/** Names of every documented event, in the service's lifecycle order where one applies. */
export const EVENT_NAMES = webhookEventSchema.options.map((o) => o.shape.event.value) as readonly EventName[]

const schemaByName = new Map<string, z.ZodType<WebhookEvent>>(
  webhookEventSchema.options.map((o) => [o.shape.event.value, o as z.ZodType<WebhookEvent>]),
)

/** Whether a name is one this version knows. */
export const isKnownEventName = (name: string): name is EventName => schemaByName.has(name)

/** Parses a decoded payload: a known event against its schema, an unknown one leniently. */
export function parseEvent(
  value: unknown,
):
  | { ok: true; event: WebhookEvent; known: true }
  | { ok: true; event: UnknownEvent; known: false }
  | { ok: false; error: z.ZodError } {
  const name = (value as { event?: unknown } | null)?.event
  const schema = typeof name === 'string' ? schemaByName.get(name) : undefined
  if (schema) {
    const parsed = schema.safeParse(value)
    return parsed.success ? { ok: true, event: parsed.data, known: true } : { ok: false, error: parsed.error }
  }
  const parsed = unknownEventSchema.safeParse(value)
  return parsed.success ? { ok: true, event: parsed.data, known: false } : { ok: false, error: parsed.error }
}
