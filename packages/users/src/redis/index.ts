/**
 * Deprecated: `redisUserStore` is in `@ringhook/redis` now; this copy is removed in 0.3.0. Users'
 * states on Redis, shared by every instance: `redisUserStore({ client })` with the app's own ioredis client.
 *
 * @packageDocumentation
 */
export { type RedisUserStoreOptions, type RedisUsersClient, redisUserStore } from './redis-store.js'
