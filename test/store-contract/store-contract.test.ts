// One contract suite, run against the in-memory store, the Redis store (ioredis) and the two
// Postgres stores; the node-redis binding runs it too, in packages/redis/test.
import { createMemoryStore } from '@ringhook/core/store'
import { createPostgresInbox, createPostgresStore, type PostgresInbox } from '@ringhook/postgres'
import { createRedisStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { connectPostgres, dropTable, freshTable } from '../postgres/support/postgres.js'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'
import { type StoreKind, storeContract } from './contract.js'

const prefix = uniquePrefix('contract')
const clients: Redis[] = []

// Two pools on one database: two instances. Each test's claims may hold a connection (the inbox's
// transactions) until the suite ends, hence the room.
const pools: pg.Pool[] = []
const inboxes: PostgresInbox[] = []
let table = ''

beforeAll(async () => {
  clients.push(await connectRedis(), await connectRedis())
  pools.push(await connectPostgres({ max: 40 }), await connectPostgres({ max: 40 }))
  table = await freshTable(pools[0] as pg.Pool, 'contract')
})

afterAll(async () => {
  if (clients[0]) await dropPrefix(clients[0], prefix)
  for (const client of clients) client.disconnect()
  await Promise.all(inboxes.map((inbox) => inbox.close()))
  if (pools[0]) await dropTable(pools[0], table)
  await Promise.all(pools.map((pool) => pool.end()))
})

// The contract is about what the stores answer, not how fast: on a loaded machine, opening the
// pools' first connections together can take longer than the default one second.
const patient = { queryTimeoutMs: 15_000 }

const twoPools = (): [pg.Pool, pg.Pool] => {
  const [a, b] = pools
  if (!a || !b) throw new Error('Postgres pools are not connected')
  return [a, b]
}

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
  {
    name: 'postgres',
    pair: () => {
      const [a, b] = twoPools()
      return [createPostgresStore({ pool: a, table, ...patient }), createPostgresStore({ pool: b, table, ...patient })]
    },
  },
  {
    // The contract's own calls, with no handler in between: each claim's transaction commits in
    // complete, rolls back in release, or lapses by Postgres' idle-in-transaction timeout.
    name: 'postgres inbox',
    pair: () => {
      const [a, b] = twoPools()
      const pair = [
        createPostgresInbox({ pool: a, table, ...patient }),
        createPostgresInbox({ pool: b, table, ...patient }),
      ] as const
      inboxes.push(...pair)
      return [...pair]
    },
  },
]

describe.each(kinds)('the $name store', storeContract)
