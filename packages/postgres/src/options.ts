import { RinghookConfigError } from '@ringhook/core'
import { isPool, type PoolLike } from './client.js'
import { type Table, tableOf } from './table.js'

/** The store's default wait for one operation: one second. */
export const DEFAULT_QUERY_TIMEOUT_MS = 1_000
/** By default a store deletes expired rows once every this many claims. */
export const DEFAULT_SWEEP_EVERY = 100
/** At most this many expired rows are deleted by one sweep. */
export const DEFAULT_SWEEP_LIMIT = 1_000

/** What both stores take. */
export interface PostgresStoreOptions<Pool extends PoolLike = PoolLike> {
  /** A node-postgres `Pool` (`new pg.Pool(...)`), or anything with its `query` and `connect`. */
  pool: Pool
  /** The table `migrate` created: `name` or `schema.name`, lower case. Default `'ringhook_dedup'`. */
  table?: string
  /**
   * Longest wait for one operation, a free connection of the pool included. Past it the operation
   * fails with `PostgresStoreError`, and the receiver answers 503 so the service retries. Default 1000 ms.
   */
  queryTimeoutMs?: number
  /**
   * Expired rows are deleted, at most `sweepLimit` at a time, once every `sweepEvery` claims, in the
   * background of the claim that triggers it. Default 100 and 1000: a sweep removes more rows than
   * the claims between two sweeps can add, so the table stays near what the window holds.
   * `sweepEvery: 0` turns it off (then delete expired rows yourself: `sweepExpired`).
   */
  sweepEvery?: number
  /** See `sweepEvery`. */
  sweepLimit?: number
}

/** The options checked, with their defaults. */
export interface Resolved<Pool extends PoolLike> {
  pool: Pool
  table: Table
  timeoutMs: number
  sweepEvery: number
  sweepLimit: number
}

export function resolveOptions<Pool extends PoolLike>(
  options: PostgresStoreOptions<Pool>,
  caller: string,
): Resolved<Pool> {
  if (!isPool(options?.pool)) {
    throw new RinghookConfigError(
      `${caller} needs \`pool\`: a node-postgres Pool (\`new pg.Pool({ connectionString })\`)`,
    )
  }
  return {
    pool: options.pool,
    table: tableOf(options.table, caller),
    timeoutMs: positive(caller, 'queryTimeoutMs', options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS),
    sweepEvery: whole(caller, 'sweepEvery', options.sweepEvery ?? DEFAULT_SWEEP_EVERY),
    sweepLimit: whole(caller, 'sweepLimit', options.sweepLimit ?? DEFAULT_SWEEP_LIMIT),
  }
}

function positive(caller: string, name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RinghookConfigError(`${caller}: ${name} must be a positive number, got ${value}`)
  }
  return value
}

function whole(caller: string, name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new RinghookConfigError(`${caller}: ${name} must be a whole number, got ${value}`)
  }
  return value
}

/** A ttl as the statements take it: a positive whole number of milliseconds. */
export const milliseconds = (ms: number): number => Math.max(1, Math.ceil(ms))
