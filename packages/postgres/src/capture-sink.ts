import type { CapturedDelivery, CaptureSink } from '@ringhook/core/capture'
import type { Queryable } from './client.js'
import { tableOf } from './table.js'

/** The table captured deliveries go to unless told otherwise; `migrate()` creates it. */
export const DEFAULT_CAPTURE_TABLE = 'ringhook_captures'

/** Where {@link postgresCaptureSink} writes. */
export interface PostgresCaptureSinkOptions {
  /** A node-postgres `Pool` (or anything with its `query`). */
  pool: Queryable
  /** The table, with the columns of `ringhook_captures` in `sql/schema.sql`. Default `ringhook_captures`. */
  table?: string
}

/**
 * A capture sink inserting each batch of records into a table in one statement: the whole record in
 * `record` (jsonb), with `id`, `received_at`, `event`, `outcome` and `code` as columns to query by.
 * `migrate(pool)` creates the table. Read records back with {@link readPostgresCaptures}, then
 * `replay()` from `@ringhook/capture`.
 *
 * @example
 * await migrate(pool)
 * createCapture({ sink: postgresCaptureSink({ pool }), outcomes: ['failed'] })
 */
export function postgresCaptureSink(options: PostgresCaptureSinkOptions): CaptureSink {
  if (typeof options?.pool?.query !== 'function')
    throw new TypeError('postgresCaptureSink needs a `pool`: a node-postgres Pool')
  const { pool } = options
  const table = tableOf(options.table ?? DEFAULT_CAPTURE_TABLE, 'postgresCaptureSink').name
  const insert = `INSERT INTO ${table} (id, received_at, event, outcome, code, record)
  SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::jsonb[])
  ON CONFLICT (id) DO NOTHING`
  return {
    async write(records: readonly CapturedDelivery[]) {
      await pool.query(insert, [
        records.map((record) => record.id),
        records.map((record) => record.receivedAt),
        records.map((record) => record.event ?? null),
        records.map((record) => record.outcome),
        records.map((record) => record.code ?? null),
        records.map((record) => JSON.stringify(record)),
      ])
    },
  }
}
