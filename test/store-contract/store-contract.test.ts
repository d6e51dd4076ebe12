// One contract suite, run against the in-memory store and the Redis store (ioredis); the
// node-redis binding runs it too, in packages/redis/test.
import { createMemoryStore } from '@ringhook/core/store'
import { createRedisStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe } from 'vitest'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'
import { type StoreKind, storeContract } from './contract.js'

const prefix = uniquePrefix('contract')
const clients: Redis[] = []

beforeAll(async () => {
  clients.push(await connectRedis(), await connectRedis())
})

afterAll(async () => {
  if (clients[0]) await dropPrefix(clients[0], prefix)
  for (const client of clients) client.disconnect()
})

const kinds: StoreKind[] = [
  {
    name: 'memory',
    pair: () => {
      const store = createMemoryStore()
      return [store, store]
    },
  },
  {
    name: 'redis',
    pair: () => {
      const [a, b] = clients
      if (!a || !b) throw new Error('Redis clients are not connected')
      return [createRedisStore({ client: a, prefix }), createRedisStore({ client: b, prefix })]
    },
  },
]

describe.each(kinds)('the $name store', storeContract)
