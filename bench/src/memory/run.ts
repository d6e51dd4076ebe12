import { fork } from 'node:child_process'
import { createMemoryStore, type DedupStore } from '@ringhook/core/store'
import { createPostgresInbox, createPostgresStore, migrate } from '@ringhook/postgres'
import { createRedisStore } from '@ringhook/redis'
import { Redis } from 'ioredis'
import pg from 'pg'
import { dynamoDbStoreRow } from '../dynamodb/store-row.js'
import type { EntryCostReport } from './entry-cost.js'
import type { GrowthReport } from './store-growth.js'

/** Runs a memory child (bundled, on bare node, with --expose-gc) and returns the report it sends. */
function runChild<T>(entry: string, count: number): Promise<T> {
  const child = fork(entry, [String(count)], { execArgv: ['--expose-gc'], stdio: 'inherit' })
  return new Promise((resolve, reject) => {
    child.once('message', (report: T) => resolve(report))
    child.once('exit', (code) => code !== 0 && reject(new Error(`${entry} exited with code ${code}`)))
  })
}

/** `count` distinct ids through the memory store: memory at checkpoints (store-growth.ts). */
export const runStoreGrowth = (entry: string, count: number): Promise<GrowthReport> => runChild(entry, count)

/** Heap per remembered delivery, `count` deliveries of each kind through a receiver (entry-cost.ts). */
export const runEntryCost = (entry: string, count: number): Promise<EntryCostReport> => runChild(entry, count)

export interface StoreThroughput {
  store: string
  /** claim + complete pairs per second, `concurrency` deliveries in flight. */
  opsPerSec: number
}

/**
 * claim + complete pairs per second with `concurrency` deliveries in flight, as a busy receiver has.
 * `tick` runs once per pair: the memory store's own clock, so that its entries expire as they would
 * at a steady 1,000 deliveries a second instead of filling its budget within the run.
 */
export async function throughput(
  store: DedupStore,
  durationMs: number,
  concurrency: number,
  tick = () => {},
): Promise<number> {
  let done = 0
  let n = 0
  const until = performance.now() + durationMs
  const started = performance.now()
  const worker = async () => {
    while (performance.now() < until) {
      tick()
      const key = `app_8kq2m4x7:event:bench_${process.pid}_${n++}`
      const claim = await store.claim(key, 15_000)
      if (claim.state !== 'claimed') throw new Error('a fresh id was not claimed')
      await store.complete(key, claim.token, { status: 200, body: '{"ok":true}' }, 60_000)
      done += 1
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return (done / (performance.now() - started)) * 1000
}

/** The memory store and the Redis store side by side; Redis is skipped with a reason when unreachable. */
export async function runStoreThroughput(
  durationMs: number,
  concurrency: number,
): Promise<{ rows: StoreThroughput[]; redisError?: string; postgresError?: string; dynamoDbError?: string }> {
  let now = 0
  const memory = createMemoryStore({ now: () => now })
  const rows: StoreThroughput[] = [
    {
      store: 'memory (default budget)',
      opsPerSec: await throughput(memory, durationMs, concurrency, () => {
        now += 1
      }),
    },
  ]
  const client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await client.connect()
    const store = createRedisStore({ client, prefix: `ringhook-bench:${process.pid}:` })
    rows.push({ store: 'Redis (127.0.0.1, ioredis)', opsPerSec: await throughput(store, durationMs, concurrency) })
  } catch (error) {
    return { rows, redisError: error instanceof Error ? error.message : String(error) }
  } finally {
    client.disconnect()
  }
  const postgresError = await postgresRows(rows, durationMs, concurrency)
  const dynamoDbError = await dynamoDbStoreRow(throughput, durationMs, concurrency).then(
    (row) => void rows.push(row),
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  )
  return { rows, ...(postgresError ? { postgresError } : {}), ...(dynamoDbError ? { dynamoDbError } : {}) }
}

/**
 * The Postgres store (one statement a claim, one a completion) and the inbox (a transaction a
 * delivery: BEGIN, lock and row, then the reply and COMMIT), on a table of this run's own, dropped
 * after. The pool has a connection for every delivery in flight, as the inbox needs.
 */
async function postgresRows(rows: StoreThroughput[], durationMs: number, concurrency: number) {
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: concurrency })
  pool.on('error', () => {})
  // A table each: the runs use the same keys.
  const [table, inboxTable] = [`ringhook_bench_${process.pid}`, `ringhook_bench_inbox_${process.pid}`]
  try {
    await migrate(pool, { table })
    await migrate(pool, { table: inboxTable })
    const plain = createPostgresStore({ pool, table, queryTimeoutMs: 10_000 })
    rows.push({ store: 'Postgres (127.0.0.1, pg)', opsPerSec: await throughput(plain, durationMs, concurrency) })
    const inbox = createPostgresInbox({ pool, table: inboxTable, queryTimeoutMs: 10_000 })
    rows.push({
      store: 'Postgres inbox (a transaction a delivery)',
      opsPerSec: await throughput(inbox, durationMs, concurrency),
    })
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${table}, ${inboxTable}`).catch(() => {})
    await pool.end()
  }
}
