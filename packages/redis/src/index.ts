/**
 * A dedup store on Redis, for receivers that run as several instances behind a load balancer, a
 * rate-limit store that keeps the service's limits for the whole fleet, a store of users' states
 * shared by every instance, and a Redis stream for captured deliveries: a sink writing them, and a
 * reader for replay.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export {
  type ReadRedisCapturesOptions,
  RedisCaptureError,
  type RedisStreamReader,
  readRedisCaptures,
} from './capture-read.js'
export {
  DEFAULT_CAPTURE_STREAM,
  DEFAULT_CAPTURE_STREAM_LENGTH,
  type RedisCaptureSinkOptions,
  type RedisStreamClient,
  redisCaptureSink,
  unauthenticatedStream,
} from './capture-sink.js'
export {
  fromNodeRedis,
  type NodeRedisEvalOptions,
  type NodeRedisScriptClient,
  type RedisScriptClient,
} from './client.js'
export { RedisStoreError, type RedisStoreOperation } from './errors.js'
export {
  createRedisLimitStore,
  DEFAULT_LIMITS_PREFIX,
  RedisLimitStoreError,
  type RedisLimitStoreOptions,
} from './limit-store.js'
export {
  createRedisStore,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_PREFIX,
  type RedisStore,
  type RedisStoreOptions,
} from './redis-store.js'
export { type RedisRefreshTurnOptions, type RedisTurnClient, redisRefreshTurn } from './refresh-turn.js'
export { type RedisUserStoreOptions, type RedisUsersClient, redisUserStore } from './user-store.js'
