// Every store interface's contract, run unchanged against every implementation. A new backend
// registers with one line in each list it implements (its kinds are written in ./backends/).
import { describe } from 'vitest'
import { durableDedup, durableLimits, durableUsers } from './backends/cloudflare.js'
import { dynamoDbDedup, dynamoDbUsers } from './backends/dynamodb.js'
import { fileCaptures } from './backends/file.js'
import { memoryDedup, memoryLimits, memoryUsers } from './backends/memory.js'
import { postgresCaptures, postgresDedup, postgresInboxDedup, postgresUsers } from './backends/postgres.js'
import { redisCaptures, redisDedup, redisLimits, redisUsers } from './backends/redis.js'
import { type CaptureSinkKind, captureSinkContract } from './capture-sink-contract.js'
import { type DedupStoreKind, dedupStoreContract } from './dedup-store-contract.js'
import { type LimitStoreKind, limitStoreContract } from './limit-store-contract.js'
import { type UserStoreKind, userStateStoreContract } from './user-state-store-contract.js'

const dedupStores: DedupStoreKind[] = [
  memoryDedup,
  redisDedup,
  postgresDedup,
  postgresInboxDedup,
  dynamoDbDedup,
  durableDedup,
]
const userStateStores: UserStoreKind[] = [memoryUsers, redisUsers, postgresUsers, dynamoDbUsers, durableUsers]
const limitStores: LimitStoreKind[] = [memoryLimits, redisLimits, durableLimits]
const captureSinks: CaptureSinkKind[] = [fileCaptures, redisCaptures, postgresCaptures]

for (const kind of dedupStores) describe(`the ${kind.name} dedup store`, () => dedupStoreContract(kind))
for (const kind of userStateStores) describe(`the ${kind.name} users’ state store`, () => userStateStoreContract(kind))
for (const kind of limitStores) describe(`the ${kind.name} limit store`, () => limitStoreContract(kind))
for (const kind of captureSinks) describe(`the ${kind.name} capture sink`, () => captureSinkContract(kind))
