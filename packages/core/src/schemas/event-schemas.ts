import * as z from 'zod/mini'
import {
  ANY_EVENT,
  EVENT_NAMES,
  EVENTS,
  type EventName,
  GESTURE_TYPE,
  NOTIFICATION_RESPONSE,
  TIMESTAMP,
} from './events.js'
import type { ZodOf } from './form.js'
import { issueMessages } from './messages.js'

// The webhook payloads' zod schemas, built from their forms (./events.ts) when `@ringhook/core/api`
// is imported. The receiver does not import this module.

/** The zod schema of any one documented event. */
type EventSchema = ZodOf<(typeof EVENTS)[keyof typeof EVENTS]>

/** A timestamp the service sends as ISO 8601; kept as the string it was. */
export const isoTimestamp = TIMESTAMP.zod()

/** `yes`, `no`, `dismiss` or `emoji:<emoji>`. */
export const notificationResponseSchema = NOTIFICATION_RESPONSE.zod()

/** Any non-empty string, typed as a {@link GestureType}. */
export const gestureTypeSchema = GESTURE_TYPE.zod()

/** The zod schema of each documented event, by name: `eventSchemas.gesture`, `eventSchemas['app.installed']`, .... */
export const eventSchemas = Object.fromEntries(EVENT_NAMES.map((name) => [name, EVENTS[name].zod()])) as {
  readonly [N in EventName]: ZodOf<(typeof EVENTS)[N]>
}

// The names each schema had before `eventSchemas`: kept for 0.2, removed in 0.3.0. A new event gets none.
/** @deprecated Use `eventSchemas.gesture`; removed in 0.3.0. */
export const gestureEventSchema = eventSchemas.gesture
/** @deprecated Use `eventSchemas['app.installed']`; removed in 0.3.0. */
export const appInstalledEventSchema = eventSchemas['app.installed']
/** @deprecated Use `eventSchemas['app.activated']`; removed in 0.3.0. */
export const appActivatedEventSchema = eventSchemas['app.activated']
/** @deprecated Use `eventSchemas['control.passive']`; removed in 0.3.0. */
export const controlPassiveEventSchema = eventSchemas['control.passive']
/** @deprecated Use `eventSchemas['app.deactivated']`; removed in 0.3.0. */
export const appDeactivatedEventSchema = eventSchemas['app.deactivated']
/** @deprecated Use `eventSchemas['app.uninstalled']`; removed in 0.3.0. */
export const appUninstalledEventSchema = eventSchemas['app.uninstalled']
/** @deprecated Use `eventSchemas['notification.responded']`; removed in 0.3.0. */
export const notificationRespondedEventSchema = eventSchemas['notification.responded']

/** Every event the service documents, discriminated on `event`: one option for each entry of the list. */
export const webhookEventSchema = z.discriminatedUnion(
  'event',
  EVENT_NAMES.map((name) => eventSchemas[name]) as [EventSchema, ...EventSchema[]],
  issueMessages,
)

/** An event this version does not know (slot events, future additions): only `event` is required. */
export const unknownEventSchema = ANY_EVENT.zod()
