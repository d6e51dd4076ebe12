/**
 * What an app writes: the receiver and its handlers, vibes, the event types, the errors and the
 * logger's shape (25 names; the README lists them). Everything else has one subpath per audience:
 * `@ringhook/core/store` for dedup store authors, `@ringhook/core/adapter` for adapter and
 * instrumentation authors, `@ringhook/core/signature` for signing and verifying by hand, and
 * `@ringhook/core/api` for the wire formats as zod schemas.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { type ErrorCode, type ErrorPhase, RinghookConfigError, RinghookError } from './errors.js'
export { type Logger, silentLogger } from './logger.js'
export { createReceiver, type Receiver } from './receiver/create-receiver.js'
export type { ReceiverOptions } from './receiver/options.js'
export type {
  AnyHandler,
  DeliveryInfo,
  ErrorHandler,
  GestureReplyValue,
  Handler,
  HandlerContext,
} from './receiver/types.js'
export { withExtras } from './schemas/closed.js'
export type { EventName, EventOf, UnknownEvent, WebhookEvent } from './schemas/events.js'
export { VIBE_LIMITS } from './schemas/vibe.js'
export { after, type Vibe, vibe } from './vibe.js'
export { VibeRuleError } from './vibe-rules.js'
