/**
 * Every user's app state (active, passive, inactive) from the lifecycle webhooks, kept in the order
 * of the events' timestamps whatever order the deliveries arrive in, and reconciled from the API.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export {
  type FleetRefresh,
  type FleetRefreshOptions,
  fleetRefresh,
  type RefreshTurn,
} from './fleet-refresh.js'
export { memoryUserStore } from './memory-store.js'
export { DEFAULT_MARGIN_MS, type Decision, decide, type Verdict } from './order.js'
export type { RefreshResult, UsersClient } from './refresher.js'
export {
  type Cause,
  LIFECYCLE_EVENTS,
  type LifecycleEventName,
  type Stamp,
  type StateCounts,
  type StateSource,
  statusOf,
  type UserState,
  type UserStatus,
  type UserView,
} from './states.js'
export {
  type ChangeHandler,
  createUserStates,
  type LifecycleEvent,
  type StateChange,
  type UserStates,
  type UserStatesOptions,
} from './user-states.js'
export type { StoreResult, UserStore } from './user-store.js'
