/**
 * A dedup store on Redis, for receivers that run as several instances behind a load balancer, and
 * a Redis stream sink for captured deliveries.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export {
  DEFAULT_CAPTURE_STREAM,
  DEFAULT_CAPTURE_STREAM_LENGTH,
  type RedisCaptureSinkOptions,
  type RedisStreamClient,
  redisCaptureSink,
} from './capture-sink.js'
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
