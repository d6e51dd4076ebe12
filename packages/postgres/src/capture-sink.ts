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
 * A record holding text jsonb refuses (a NUL, a lone surrogate) is stored too, whole, as a jsonb
 * string of its JSON, so that it cannot take the rest of its batch down with it.
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
        records.map((record) => columnText(record.id)),
        records.map((record) => record.receivedAt),
        records.map((record) => (record.event === undefined ? null : columnText(record.event))),
        records.map((record) => columnText(record.outcome)),
        records.map((record) => (record.code === undefined ? null : columnText(record.code))),
        records.map(jsonbOf),
      ])
    },
  }
}

// JSON.stringify spells a NUL `\u0000` and a lone surrogate `\ud800`–`\udfff`, which jsonb refuses,
// failing the whole INSERT. It is an escape only after an even run of backslashes (`\\u0000` is an
// escaped backslash, then text). The test takes about 0.2 ms a MB, the JSON itself 1.6 ms.
const REFUSED_BY_JSONB = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f])/

/**
 * A record's value for the `record` column: its JSON; or, when that holds text jsonb refuses, that
 * JSON as a jsonb string, which keeps every character and which `readPostgresCaptures` parses back.
 * (The record stays whole: a body re-encoded as base64 would still leave a header or event.)
 */
function jsonbOf(record: CapturedDelivery): string {
  const json = JSON.stringify(record)
  return REFUSED_BY_JSONB.test(json) ? JSON.stringify(json) : json
}

/**
 * A value for a text column, which cannot hold a NUL: each as U+FFFD, as node-postgres sends a lone
 * surrogate. Only the columns to query by: the row's `record` keeps the value as it was.
 */
export const columnText = (value: string): string => (value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value)
