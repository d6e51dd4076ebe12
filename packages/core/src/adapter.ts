/**
 * What an adapter translates between: its framework's request and response and the receiver's,
 * and what an instrumentation (`@ringhook/otel`) observes of each delivery. Also what other packages
 * built on the core share with it: the receiver's resolved options and lifecycle types, the error
 * codes' table and the default logger, and how the kit's tools read a receiver's answer. Apps do not
 * need it.
 *
 * @packageDocumentation
 */
export type { Awaitable } from './awaitable.js'
export { ERRORS } from './errors.js'
export { type CappedAnswer, readAnswer } from './http/read-answer.js'
export { consoleLogger, type LogFn } from './logger.js'
export { beginArrival } from './receiver/arrival.js'
export type { BodyInput, BodyReader, BodyResult, FetchBody } from './receiver/body.js'
export { closesConnection } from './receiver/closes-connection.js'
export { bodyConsumed, fetchBodyGone } from './receiver/consumed.js'
export { bodyDeadlines, type Deadline, type Deadlines } from './receiver/deadlines.js'
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
/** A receiver's handlers and their one failure rule, shared with `@ringhook/bullmq`'s worker. */
export { type HandlersResult, Registry, registering, type StoredHandler } from './receiver/registry.js'
export type { HandleHooks, WebhookRequest } from './receiver/request.js'
export { errorResponse, jsonResponse, type WebhookResponse } from './receiver/response.js'
export { readsBody } from './receiver/unread.js'
export { getHeader, type HeaderInput } from './signature/headers.js'
