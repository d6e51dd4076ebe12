// The cost of keeping users' states (@ringhook/users): one lifecycle delivery through
// `receiver.handle()` with the states on, beside the same delivery with a handler that does nothing,
// per store (memory; Redis with its dedup store; Postgres with its inbox; DynamoDB, on dynalite, with its dedup store). In process, a fixed number
// in flight; every delivery a distinct user's, freshly signed.
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { createPostgresInbox, migrate, migrateUserStates, postgresUserStore } from '@ringhook/postgres'
import { createRedisStore, redisUserStore } from '@ringhook/redis'
import { createUserStates, LIFECYCLE_EVENTS } from '@ringhook/users'
import { Redis } from 'ioredis'
import pg from 'pg'
import { dynamoDbVariant } from '../dynamodb/users-variant.js'

const SECRET = 'whsec_bench_users_states'

/** One store's pair: the delivery without states and with them. */
export interface UsersRow {
  store: string
  /** Microseconds a delivery (wall time over deliveries, `inFlight` at once), without and with states. */
  withoutUs: number
  withUs: number
  deliveries: number
}

export interface UsersReport {
  rows: UsersRow[]
  inFlight: number
  errors: string[]
}

type Variant = { receiver: Receiver; close(): Promise<void> }

/** Runs each store's pair; a store that is not there (no Redis, no Postgres) is reported, not fatal. */
export async function runUsersBench(deliveries: number, inFlight: number): Promise<UsersReport> {
  const report: UsersReport = { rows: [], inFlight, errors: [] }
  const stores: Array<[string, (states: boolean) => Promise<Variant>]> = [
    ['memory', memoryVariant],
    ['Redis', redisVariant],
    ['Postgres (inbox)', postgresVariant],
    ['DynamoDB (dynalite in process)', (states) => dynamoDbVariant(SECRET, states)],
  ]
  for (const [store, variant] of stores) {
    try {
      // Interleaved, twice each, the better run kept: a shared machine only ever slows a run down.
      const runs = { without: [] as number[], with: [] as number[] }
      for (let round = 0; round < 2; round++) {
        runs.without.push(await measure(await variant(false), deliveries, inFlight))
        runs.with.push(await measure(await variant(true), deliveries, inFlight))
      }
      report.rows.push({ store, withoutUs: Math.min(...runs.without), withUs: Math.min(...runs.with), deliveries })
    } catch (error) {
      report.errors.push(`${store}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return report
}

async function memoryVariant(states: boolean): Promise<Variant> {
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger })
  if (states) createUserStates().attach(receiver)
  else receiver.on(LIFECYCLE_EVENTS, () => {})
  return { receiver, close: async () => {} }
}

async function redisVariant(states: boolean): Promise<Variant> {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true })
  await redis.connect()
  const prefix = `ringhook:bench:users:${process.pid}:${Date.now()}:`
  const receiver = createReceiver({
    secret: SECRET,
    logger: silentLogger,
    store: createRedisStore({ client: redis, prefix: `${prefix}dedup:` }),
  })
  if (states)
    createUserStates({ store: redisUserStore({ client: redis, prefix: `${prefix}states:` }) }).attach(receiver)
  else receiver.on(LIFECYCLE_EVENTS, () => {})
  return {
    receiver,
    close: async () => {
      let cursor = '0'
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
        if (keys.length > 0) await redis.del(...keys)
        cursor = next
      } while (cursor !== '0')
      redis.disconnect()
    },
  }
}

async function postgresVariant(states: boolean): Promise<Variant> {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    max: 20,
  })
  pool.on('error', () => {})
  const suffix = `${process.pid}_${Date.now()}`
  const dedup = `bench_users_dedup_${suffix}`
  const table = `bench_users_${suffix}`
  await migrate(pool, { table: dedup })
  await migrateUserStates(pool, { table })
  const inbox = createPostgresInbox({ pool, table: dedup })
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger, store: inbox, onDeadline: 'retry' })
  const users = createUserStates({ store: postgresUserStore({ pool, table }) })
  receiver.on(
    LIFECYCLE_EVENTS,
    inbox.handler(async (event, tx) => {
      if (states) await users.apply(event, tx)
    }),
  )
  return {
    receiver,
    close: async () => {
      await inbox.close()
      await pool.query(`DROP TABLE IF EXISTS ${dedup}; DROP TABLE IF EXISTS ${table}`)
      await pool.end()
    },
  }
}

/** Microseconds a delivery: `count` distinct users' `app.activated`, `inFlight` at once. */
async function measure(variant: Variant, count: number, inFlight: number): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000)
  const requests = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const body = JSON.stringify({
        event: 'app.activated',
        user_app_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        app_id: 'app_bench',
        timestamp: new Date(Date.now() - count + i).toISOString(),
        data: {},
      })
      const signed = await signWebhook({ secret: SECRET, body, timestamp })
      return {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature': signed.signature,
          'x-service-timestamp': signed.timestamp,
        },
        rawBody: new TextEncoder().encode(body),
      }
    }),
  )
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < requests.length) {
        const response = await variant.receiver.handle(requests[next++] as (typeof requests)[number])
        if (response.status !== 200) throw new Error(`a delivery was answered ${response.status}`)
      }
    }),
  )
  const us = ((performance.now() - started) * 1000) / count
  await variant.close()
  return us
}
