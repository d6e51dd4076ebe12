// The Redis stores under the contracts of the interfaces they implement.
import { redisCaptures, redisDedup, redisLimits, redisUsers } from './backends/redis.js'
import { captureSink, dedupStore, limitStore, userStateStore } from './register.js'

dedupStore(redisDedup)
userStateStore(redisUsers)
limitStore(redisLimits)
captureSink(redisCaptures)
