/**
 * ringhook's stores on Cloudflare Durable Objects, for receivers on Workers, where every request may
 * land in another isolate: the dedup store, the users' state store and the limit store, all served
 * by one Durable Object class (`RinghookObject`) that the Worker exports and binds.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export type {
  ObjectNamespace,
  ObjectState,
  ObjectStorage,
  ObjectStub,
  SqlDatabase,
  SqlRows,
  SqlValue,
} from './bindings.js'
export {
  createDurableStore,
  DEFAULT_DEDUP_PREFIX,
  type DurableStore,
  type DurableStoreOptions,
} from './dedup-store.js'
export { DurableStoreError, type DurableStoreKind } from './errors.js'
export {
  createDurableLimitStore,
  DEFAULT_LIMITS_NAME,
  type DurableLimitStoreOptions,
} from './limit-store.js'
export { RinghookObject } from './object.js'
export { DEFAULT_SHARDS, MAX_SHARDS } from './shards.js'
export {
  DEFAULT_USERS_PREFIX,
  type DurableUserStoreOptions,
  durableUserStore,
} from './user-store.js'
