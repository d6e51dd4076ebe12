/**
 * A dedup store on Redis, for receivers that run as several instances behind a load balancer.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export {
  fromNodeRedis,
  type NodeRedisEvalOptions,
  type NodeRedisScriptClient,
  type RedisScriptClient,
} from './client.js'
export { RedisStoreError, type RedisStoreOperation } from './errors.js'
export {
  createRedisStore,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_PREFIX,
  type RedisStore,
  type RedisStoreOptions,
} from './redis-store.js'
