/**
 * What an app uses: the receiver, its handlers and their types, vibes, events, errors, stores and
 * loggers. Adapters import `@ringhook/core/adapter`; the API client and the simulator import
 * `@ringhook/core/api`.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export type { Awaitable } from './awaitable.js'
export { type DedupKeyFn, dedupKeyFor, defaultDedupKey, MAX_DEDUP_KEY_LENGTH } from './dedup/key.js'
export {
  createMemoryStore,
  DEFAULT_MEMORY_STORE_BYTES,
  type MemoryStore,
  type MemoryStoreOptions,
} from './dedup/memory-store.js'
export type { ClaimResult, DedupStore, StoredReply } from './dedup/store.js'
export { ERRORS, type ErrorCode, type ErrorPhase, RinghookConfigError, RinghookError } from './errors.js'
export { consoleLogger, type LogFn, type Logger, silentLogger } from './logger.js'
export { createReceiver, type Receiver } from './receiver/create-receiver.js'
export type { Instrumentation } from './receiver/instrumentation.js'
export type { CloseOptions, CloseResult } from './receiver/lifecycle.js'
export type { ReceiverOptions, ResolvedOptions, SecretResolver } from './receiver/options.js'
export type {
  AnyHandler,
  DeliveryInfo,
  ErrorHandler,
  GestureReplyValue,
  Handler,
  HandlerContext,
} from './receiver/types.js'
export { type ExtraFields, type WithExtras, withExtras } from './schemas/closed.js'
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
  type UnknownEvent,
  type WebhookEvent,
} from './schemas/events.js'
export { characterCount } from './schemas/text.js'
export { type GestureReply, VIBE_LIMITS, type VibePattern, type VibePayload, type VibeStep } from './schemas/vibe.js'
export { type SignedHeaders, type SignOptions, signWebhook } from './signature/sign.js'
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyFailureReason,
  type VerifyOptions,
  type VerifyResult,
  verifyWebhook,
} from './signature/verify.js'
export { after, type StepInput, type StepInputs, type Vibe, vibe } from './vibe.js'
export { type VibeIssue, type VibeRule, VibeRuleError } from './vibe-rules.js'
