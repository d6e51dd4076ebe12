/**
 * The typed client for the service's `/v1` API: inputs checked before sending, answers parsed against
 * the documented shapes, every failure a typed error.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { after, vibe } from '@ringhook/core'
export type {
  AwaitedResponse,
  AwaitTriggerResult,
  EventResponseRecord,
  Install,
  OwnInstall,
  QueuedTriggerResult,
  TriggerRequest,
  TriggerResult,
  User,
  UserDetail,
  UserState,
  UserStateFilter,
  VibePatterns,
} from '@ringhook/core/api'
export { createClient, type RinghookClient } from './client.js'
export type { Clock } from './clock.js'
export type { CallOptions } from './context.js'
export type { DedupLinkOptions, LinkedResult } from './dedup-link.js'
export {
  BadRequestError,
  type ClientErrorKind,
  ForbiddenError,
  type InputIssue,
  InvalidRequestError,
  InvalidResponseError,
  LocalRateLimitError,
  NetworkError,
  NotFoundError,
  PermissionDisabledError,
  RateLimitedError,
  type RequestInfo,
  RinghookApiError,
  RinghookClientError,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsendableRequestError,
  ValidationError,
} from './errors.js'
export type { EventsApi, ResponseOptions, WaitOptions } from './events.js'
export type { InstallList, InstallsApi } from './installs.js'
export type { ClientAttempt, ClientInstrumentation, LimiterWait } from './instrumentation.js'
export type {
  LimitRules,
  LimitScope,
  LimitStore,
  RefusedSlot,
  RestoredGrant,
  TakenSlot,
  TakeRequest,
  TakeResult,
} from './limit-store.js'
export {
  createRateLimiter,
  type FallbackShare,
  type FleetRateLimiter,
  type RateLimiter,
  type RateLimitOptions,
  type WindowLimit,
} from './limiter.js'
export { createMemoryLimitStore } from './memory-limit-store.js'
export type { ClientOptions } from './options.js'
export type { RetryOptions } from './retry.js'
export type { TriggerInput, TriggerWithVibe, VibeLike } from './trigger-input.js'
export type { UserList, UserListOptions, UsersApi } from './users.js'
export type { AwaitTriggerInput, QueuedTriggerInput, TriggerOptions, VibesApi } from './vibes.js'
