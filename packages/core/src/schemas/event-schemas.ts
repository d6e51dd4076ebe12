import * as z from 'zod/mini'
import { ANY_EVENT, EVENT_NAMES, EVENTS, GESTURE_TYPE, NOTIFICATION_RESPONSE, TIMESTAMP } from './events.js'
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

/** `gesture`: the user performed a gesture on the ring while the app was active. */
export const gestureEventSchema = EVENTS.gesture.zod()
/** `app.installed`: the user added the app. */
export const appInstalledEventSchema = EVENTS['app.installed'].zod()
/** `app.activated`: the app became active (a control app selected, a device's ring mode on). */
export const appActivatedEventSchema = EVENTS['app.activated'].zod()
/** `control.passive`: the ring went passive (screen locked, app backgrounded); gestures pause, vibes still work. */
export const controlPassiveEventSchema = EVENTS['control.passive'].zod()
/** `app.deactivated`: the app is no longer active. */
export const appDeactivatedEventSchema = EVENTS['app.deactivated'].zod()
/** `app.uninstalled`: the user removed the app. */
export const appUninstalledEventSchema = EVENTS['app.uninstalled'].zod()
/** `notification.responded`: the user answered a trigger that asked something; `data` says which and how. */
export const notificationRespondedEventSchema = EVENTS['notification.responded'].zod()

/** Every event the service documents, discriminated on `event`: one option for each entry of the list. */
export const webhookEventSchema = z.discriminatedUnion(
  'event',
  EVENT_NAMES.map((name) => EVENTS[name].zod()) as [EventSchema, ...EventSchema[]],
  issueMessages,
)

/** An event this version does not know (slot events, future additions): only `event` is required. */
export const unknownEventSchema = ANY_EVENT.zod()
