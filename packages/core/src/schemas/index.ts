// What `@ringhook/core/api` exports of the schemas: the zod schemas, the types inferred from them
// and the names. The forms they are built from (./form.ts) stay internal.
export * from './api.js'
export * from './closed.js'
export * from './event-schemas.js'
export {
  type AppActivatedEvent,
  type AppDeactivatedEvent,
  type AppInstalledEvent,
  type AppUninstalledEvent,
  type ControlPassiveEvent,
  EVENT_NAMES,
  type EventName,
  type EventOf,
  type GestureEvent,
  type GestureType,
  isKnownEventName,
  KNOWN_GESTURE_TYPES,
  type KnownGestureType,
  type NotificationRespondedEvent,
  type NotificationResponse,
  parseEvent,
  type UnknownEvent,
  type WebhookEvent,
} from './events.js'
export { characterCount, maxCharacters } from './text.js'
export {
  type GestureReply,
  requireMessageWithNotification,
  VIBE_LIMITS,
  type VibePattern,
  type VibePayload,
  type VibeStep,
} from './vibe.js'
export * from './vibe-schemas.js'
