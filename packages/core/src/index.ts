export { constantTimeEqual, fromHex, toBytes, toHex } from './crypto/bytes.js'
export { type HmacEngine, hmacEngine, webCryptoHmac } from './crypto/hmac.js'
export { type DedupKeyFn, dedupKeyFor, defaultDedupKey, MAX_DEDUP_KEY_LENGTH } from './dedup/key.js'
export {
  createMemoryStore,
  DEFAULT_MEMORY_STORE_BYTES,
  type MemoryStore,
  type MemoryStoreOptions,
} from './dedup/memory-store.js'
export type { ClaimResult, DedupStore, DedupWindows, StoredReply } from './dedup/store.js'
export { ERRORS, type ErrorCode, type ErrorPhase, RinghookConfigError, RinghookError } from './errors.js'
export { consoleLogger, type LogFn, type Logger, silentLogger } from './logger.js'
export type { Awaitable } from './receiver/awaitable.js'
export { type BodyInput, type BodyResult, readBody } from './receiver/body.js'
export { createReceiver, type Receiver } from './receiver/create-receiver.js'
export { fromFetchRequest, toFetchResponse } from './receiver/fetch.js'
export type { HandleHooks, WebhookRequest } from './receiver/handle.js'
export type { CloseOptions, CloseResult } from './receiver/lifecycle.js'
export { fromNodeRequest, type NodeStyleRequest } from './receiver/node-request.js'
export type { ReceiverOptions, ResolvedOptions, SecretResolver } from './receiver/options.js'
export { toGestureReply } from './receiver/reply.js'
export { errorResponse, jsonResponse, type WebhookResponse } from './receiver/response.js'
export type {
  AnyHandler,
  DeliveryInfo,
  ErrorHandler,
  GestureReplyValue,
  Handler,
  HandlerContext,
} from './receiver/types.js'
export * from './schemas/index.js'
export {
  getHeader,
  type HeaderInput,
  SIGNATURE_HEADER,
  SIGNATURE_PREFIX,
  TIMESTAMP_HEADER,
} from './signature/headers.js'
export { type SignedHeaders, type SignOptions, signWebhook } from './signature/sign.js'
export {
  assertTolerance,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyFailureReason,
  type VerifyOptions,
  type VerifyResult,
  verifyWebhook,
} from './signature/verify.js'
export { after, type StepInput, type StepInputs, type Vibe, vibe } from './vibe.js'
export { type VibeIssue, type VibeRule, VibeRuleError } from './vibe-rules.js'
