import * as z from 'zod/mini'
import { anyEventSchema, eventSchema, gestureNameSchema, responseSchema, timestampSchema } from './event-builders.js'
import { issueMessages } from './messages.js'

// The webhook payloads' schemas as constants, for `@ringhook/core/api`: built when that entry is
// imported. The receiver does not import this module; it builds each event's schema on the event's
// first delivery (./events.ts).

/** A timestamp the service sends as ISO 8601; kept as the string it was. */
export const isoTimestamp = timestampSchema()

/** `yes`, `no`, `dismiss` or `emoji:<emoji>`. */
export const notificationResponseSchema = responseSchema()

/** Any non-empty string, typed as a {@link GestureType}. */
export const gestureTypeSchema = gestureNameSchema()

/** `gesture`: the user performed a gesture on the ring while the app was active. */
export const gestureEventSchema = eventSchema('gesture')
/** `app.installed`: the user added the app. */
export const appInstalledEventSchema = eventSchema('app.installed')
/** `app.activated`: the app became active (a control app selected, a device's ring mode on). */
export const appActivatedEventSchema = eventSchema('app.activated')
/** `control.passive`: the ring went passive (screen locked, app backgrounded); gestures pause, vibes still work. */
export const controlPassiveEventSchema = eventSchema('control.passive')
/** `app.deactivated`: the app is no longer active. */
export const appDeactivatedEventSchema = eventSchema('app.deactivated')
/** `app.uninstalled`: the user removed the app. */
export const appUninstalledEventSchema = eventSchema('app.uninstalled')
/** `notification.responded`: the user answered a trigger that asked something; `data` says which and how. */
export const notificationRespondedEventSchema = eventSchema('notification.responded')

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
export const unknownEventSchema = anyEventSchema()
