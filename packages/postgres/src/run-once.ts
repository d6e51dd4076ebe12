import { randomUUID } from 'node:crypto'
import { RinghookConfigError } from '@ringhook/core'
import type { ClientOf, PoolLike } from './client.js'
import { milliseconds } from './options.js'
import { storedKey } from './stored-key.js'
import { tableOf } from './table.js'

/** Seven days: longer than any retry schedule, and than most replays come after a failure. */
const SEVEN_DAYS = 7 * 24 * 60 * 60 * 1000

/** Where `runOnce` records what it ran, and for how long. */
export interface RunOnceOptions {
  /** The table `migrate` created. Default `'ringhook_dedup'`. */
  table?: string
  /** How long the record lasts; a run after that applies again. Default 7 days. */
  ttlMs?: number
}

/**
 * Runs `fn` in a transaction that also records `key`, unless an earlier run recorded it: however
 * often a job runs (retries, a worker killed mid-job, replays), its writes on `tx` commit once.
 * Resolves `{ applied: true, value }` when it ran now, `{ applied: false }` when it had run before.
 * A second run while the first one's transaction is open waits for it, then sees its outcome.
 *
 * @example
 * worker.on('notification.responded', async (event, ctx) => {
 *   await runOnce(pool, ctx.job.idempotencyKey, (tx) =>
 *     tx.query('INSERT INTO answers (event_id, response) VALUES ($1, $2)', [event.data.event_id, event.data.response]),
 *   )
 * })
 */
export async function runOnce<Pool extends PoolLike, Result>(
  pool: Pool,
  key: string,
  fn: (tx: ClientOf<Pool>) => Result | PromiseLike<Result>,
  options: RunOnceOptions = {},
): Promise<{ applied: true; value: Result } | { applied: false }> {
  const table = tableOf(options.table, 'runOnce')
  if (typeof key !== 'string' || key.length === 0) throw new RinghookConfigError('runOnce needs a key')
  const ttlMs = options.ttlMs ?? SEVEN_DAYS
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RinghookConfigError(`runOnce: ttlMs must be a positive number, got ${ttlMs}`)
  }
  const client = (await pool.connect()) as ClientOf<Pool>
  let failure: unknown
  const onError = (error: Error) => {
    failure = error
  }
  client.on('error', onError)
  try {
    await client.query('BEGIN')
    // The record is taken first: a concurrent run of the same key waits here for this transaction.
    const token = randomUUID()
    const row = storedKey(key)
    const { rows } = await client.query(table.claim, [row, token, milliseconds(ttlMs)])
    if ((rows[0] as { claimed?: boolean } | undefined)?.claimed !== true) {
      await client.query('ROLLBACK')
      return { applied: false }
    }
    const value = await fn(client)
    await client.query(table.complete, [row, token, 200, '', milliseconds(ttlMs), null])
    await client.query('COMMIT')
    return { applied: true, value }
  } catch (error) {
    failure ??= error
    throw error
  } finally {
    client.off('error', onError)
    // A client whose transaction may still be open is closed, not pooled: that rolls it back.
    client.release(failure === undefined ? undefined : toError(failure))
  }
}

const toError = (value: unknown): Error => (value instanceof Error ? value : new Error(String(value)))
