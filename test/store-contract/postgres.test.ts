// The Postgres stores under the contracts of the interfaces they implement.
import { postgresCaptures, postgresDedup, postgresInboxDedup, postgresUsers } from './backends/postgres.js'
import { captureSink, dedupStore, userStateStore } from './register.js'

dedupStore(postgresDedup)
dedupStore(postgresInboxDedup)
userStateStore(postgresUsers)
captureSink(postgresCaptures)
