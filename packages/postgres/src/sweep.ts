import type { Queryable } from './client.js'
import { DEFAULT_SWEEP_LIMIT } from './options.js'
import { tableOf } from './table.js'

/**
 * Deletes at most `limit` expired rows (default 1000) and resolves how many. The stores call it
 * every `sweepEvery` claims; call it yourself (a cron, a scheduled job) if you turned that off.
 *
 * @example
 * setInterval(() => sweepExpired(pool).catch(console.warn), 60_000).unref()
 */
export async function sweepExpired(pool: Queryable, options: { table?: string; limit?: number } = {}): Promise<number> {
  const table = tableOf(options.table, 'sweepExpired')
  const { rows } = await pool.query(`WITH gone AS (${table.sweep} RETURNING 1) SELECT count(*)::int AS n FROM gone`, [
    options.limit ?? DEFAULT_SWEEP_LIMIT,
  ])
  return (rows[0] as { n: number }).n
}

/** Counts claims and sweeps every `every` of them, in the background, one sweep at a time. */
export function sweeper(pool: Queryable, sql: string, every: number, limit: number): () => void {
  let claims = 0
  let running = false
  return () => {
    if (every === 0 || ++claims < every || running) return
    claims = 0
    running = true
    // A failed sweep is harmless: expired rows are taken over by claims anyway; the next one retries.
    pool
      .query(sql, [limit])
      .catch(() => {})
      .finally(() => {
        running = false
      })
  }
}
