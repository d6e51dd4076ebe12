/**
 * For authors of a limit store (the Redis one of `@ringhook/redis`, or one of your own): the
 * `LimitStore` contract a rate limiter counts in, and what its calls take and return. The root entry
 * exports the same names.
 *
 * @packageDocumentation
 */
export type {
  LimitRules,
  LimitScope,
  LimitStore,
  RefusedSlot,
  RestoredGrant,
  TakenSlot,
  TakeRequest,
  TakeResult,
  WindowLimit,
} from './limit-store.js'
