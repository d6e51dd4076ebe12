/**
 * What an adapter translates between: its framework's request and response and the receiver's,
 * and what an instrumentation (`@ringhook/otel`) observes of each delivery. Apps do not need it.
 *
 * @packageDocumentation
 */
export type { Awaitable } from './awaitable.js'
/** The HMAC engine this runtime uses (node:crypto or Web Crypto): for runtime diagnostics and tests. */
export { type HmacEngine, hmacEngine, webCryptoHmac } from './crypto/hmac.js'
export { beginArrival } from './receiver/arrival.js'
export type { BodyInput, BodyReader, BodyResult, FetchBody } from './receiver/body.js'
export { bodyConsumed, fetchBodyGone } from './receiver/consumed.js'
export { bodyDeadlines, type Deadline, type Deadlines } from './receiver/deadlines.js'
export { fromFetchRequest, toFetchResponse } from './receiver/fetch.js'
export type {
  ClaimOutcome,
  DeliveryObserver,
  DeliveryOutcome,
  Instrumentation,
  SettleOperation,
} from './receiver/instrumentation.js'
export type { HandleHooks, WebhookRequest } from './receiver/request.js'
export { errorResponse, jsonResponse, type WebhookResponse } from './receiver/response.js'
export { readsBody } from './receiver/unread.js'
export {
  getHeader,
  type HeaderInput,
  SIGNATURE_HEADER,
  SIGNATURE_PREFIX,
  TIMESTAMP_HEADER,
} from './signature/headers.js'
