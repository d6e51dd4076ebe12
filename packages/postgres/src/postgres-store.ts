import { randomUUID } from 'node:crypto'
import type { ClaimResult, DedupStore, StoredReply } from '@ringhook/core/store'
import { type ClaimRow, toClaim } from './claim-row.js'
import type { PoolLike } from './client.js'
import { milliseconds, type PostgresStoreOptions, resolveOptions } from './options.js'
import { storedKey } from './stored-key.js'
import { sweeper } from './sweep.js'
import { withTimeout } from './timeout.js'

/** The Postgres store: every operation is a round trip, so each answers with a promise. */
export interface PostgresStore extends DedupStore {
  claim(key: string, inFlightTtlMs: number): Promise<ClaimResult>
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): Promise<void>
  release(key: string, token: string): Promise<void>
}

/**
 * A dedup store on Postgres, shared by every instance of a receiver: each operation is one
 * statement on one row, so of any number of instances claiming a delivery at once, one wins.
 * Expired rows are deleted in the background every `sweepEvery` claims: no cron to set up.
 *
 * @example
 * import pg from 'pg'
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 * await migrate(pool)
 * createReceiver({ secret, store: createPostgresStore({ pool }) })
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const { pool, table, timeoutMs, sweepEvery, sweepLimit } = resolveOptions<PoolLike>(options, 'createPostgresStore')
  const sweep = sweeper(pool, table.sweep, sweepEvery, sweepLimit)

  const release = async (key: string, token: string): Promise<void> => {
    await withTimeout(pool.query(table.release, [storedKey(key), token]), timeoutMs, 'release')
  }

  return {
    async claim(key, inFlightTtlMs) {
      const token = randomUUID()
      sweep()
      const pending = pool
        .query(table.claim, [storedKey(key), token, milliseconds(inFlightTtlMs)])
        .then(({ rows }) => toClaim(rows[0] as ClaimRow | undefined, token))
      // A claim that timed out (waiting for a connection of an exhausted pool, say) may still be
      // made later. Left alone it would turn the service's retries away for its whole ttl: it is
      // released as soon as it lands.
      return withTimeout(pending, timeoutMs, 'claim', (late) => {
        if (late.state === 'claimed') release(key, token).catch(() => {})
      })
    },
    async complete(key, token, reply, ttlMs) {
      const values = [storedKey(key), token, reply.status, reply.body, milliseconds(ttlMs), null]
      await withTimeout(pool.query(table.complete, values), timeoutMs, 'complete')
    },
    release,
  }
}
