/**
 * For authors of an adapter or an instrumentation: what an adapter translates between (its
 * framework's request and response and the receiver's), and what an instrumentation (`@ringhook/otel`)
 * observes of each delivery. Also the types of `receiver.options` and `receiver.close()`, the error
 * codes' table and the logger's method. Apps do not need it.
 *
 * @packageDocumentation
 */
export type { Awaitable } from './awaitable.js'
export { ERRORS } from './errors.js'
export type { LogFn } from './logger.js'
export type { BodyInput, BodyReader, BodyResult, FetchBody } from './receiver/body.js'
export { closesConnection } from './receiver/closes-connection.js'
export { bodyConsumed, fetchBodyGone } from './receiver/consumed.js'
export { toFetchResponse } from './receiver/fetch.js'
export type {
  ClaimOutcome,
  DeliveryObserver,
  DeliveryOutcome,
  Instrumentation,
  SettleOperation,
} from './receiver/instrumentation.js'
export type { CloseOptions, CloseResult } from './receiver/lifecycle.js'
export type { ResolvedOptions } from './receiver/options.js'
export type { HandleHooks, WebhookRequest } from './receiver/request.js'
export { errorResponse, jsonResponse, type WebhookResponse } from './receiver/response.js'
export { getHeader, type HeaderInput } from './signature/headers.js'
