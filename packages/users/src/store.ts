/**
 * For authors of a users' store (the Redis and Postgres ones of `@ringhook/redis` and
 * `@ringhook/postgres`, or one of your own): the `UserStore` contract, what it keeps per user (a
 * `Stamp`, packed in one number by `pack`), and the ordering rule (`decide`) its compare-and-set applies;
 * and the `RefreshTurn` a fleet's instances take to refresh shared states one at a time.
 *
 * @packageDocumentation
 */
export type { RefreshTurn } from './fleet-refresh.js'
export { DEFAULT_MARGIN_MS, type Decision, decide, type Verdict } from './order.js'
export {
  type Cause,
  isWebhook,
  pack,
  STATUS_OF,
  STATUSES,
  type Stamp,
  type StateCounts,
  statusOf,
  type UserStatus,
  type UserView,
  unpack,
  viewOf,
} from './states.js'
export type { StoreResult, UserStore } from './user-store.js'
