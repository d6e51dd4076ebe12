// The in-memory stores under the contracts of the interfaces they implement.
import { memoryDedup, memoryLimits, memoryUsers } from './backends/memory.js'
import { dedupStore, limitStore, userStateStore } from './register.js'

dedupStore(memoryDedup)
userStateStore(memoryUsers)
limitStore(memoryLimits)
