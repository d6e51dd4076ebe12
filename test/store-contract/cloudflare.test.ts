// The Durable Object stores (in workerd) under the contracts of the interfaces they implement.
import { durableDedup, durableLimits, durableUsers } from './backends/cloudflare.js'
import { dedupStore, limitStore, userStateStore } from './register.js'

dedupStore(durableDedup)
userStateStore(durableUsers)
limitStore(durableLimits)
