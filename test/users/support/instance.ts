// A receiver instance keeping users' states on Redis or Postgres, in a process of its own (forked by
// test/users/redis.long.test.ts and postgres.long.test.ts, which kill some of them with SIGKILL mid-run).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@ringhook/client'
import { createReceiver, type ReceiverOptions, silentLogger } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createPostgresInbox, postgresUserStore } from '@ringhook/postgres'
import { createRedisStore, redisUserStore } from '@ringhook/redis'
import { createUserStates, LIFECYCLE_EVENTS } from '@ringhook/users'
import { Redis } from 'ioredis'
import pg from 'pg'
import { SHARED_POSTGRES } from '../../postgres/support/postgres.js'
import { SECRET } from './service.js'

/** What the test tells an instance. */
export interface InstanceEnv {
  USERS_STORE: 'redis' | 'postgres'
  /** The Redis key prefix, or the Postgres states' table. */
  USERS_WHERE: string
  /** The Redis dedup prefix, or the Postgres inbox's table. */
  DEDUP_WHERE: string
  SIM_URL: string
  API_KEY: string
  APP_ID: string
}

const env = process.env as Partial<InstanceEnv>
if (!env.USERS_WHERE || !env.DEDUP_WHERE || !env.SIM_URL || !env.API_KEY || !env.APP_ID || !process.send)
  throw new Error('instance.ts is started by the users suites')
const client = createClient({ apiKey: env.API_KEY, baseUrl: env.SIM_URL, rateLimit: true })
const options: ReceiverOptions = { secret: SECRET, logger: silentLogger, onDeadline: 'retry' }
const refresh = { share: 0.3 }

if (env.USERS_STORE === 'redis') {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 })
  // A claim of a killed instance lapses soon, so the service's retries reach the others.
  const receiver = createReceiver({
    ...options,
    store: createRedisStore({ client: redis, prefix: env.DEDUP_WHERE }),
    dedup: { inFlightTtlMs: 1000 },
  })
  const store = redisUserStore({ client: redis, prefix: env.USERS_WHERE })
  createUserStates({ store, client, appId: env.APP_ID, refresh }).attach(receiver)
  listen(receiver)
} else {
  const pool = new pg.Pool({ connectionString: SHARED_POSTGRES, max: 10 })
  pool.on('error', () => {})
  const inbox = createPostgresInbox({ pool, table: env.DEDUP_WHERE, queryTimeoutMs: 10_000 })
  const receiver = createReceiver({ ...options, store: inbox })
  const users = createUserStates({
    store: postgresUserStore({ pool, table: env.USERS_WHERE }),
    client,
    appId: env.APP_ID,
    refresh,
  })
  // The state is written in the delivery's transaction: it commits with the claim, or not at all.
  receiver.on(
    LIFECYCLE_EVENTS,
    inbox.handler(async (event, tx) => {
      await users.apply(event, tx)
    }),
  )
  listen(receiver)
}

function listen(receiver: ReturnType<typeof createReceiver>) {
  const server = createServer(ringhook(receiver)).listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port })
  })
}
