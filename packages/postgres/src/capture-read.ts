import type { CapturedDelivery, CaptureFilter } from '@ringhook/core/capture'
import { columnText, DEFAULT_CAPTURE_TABLE } from './capture-sink.js'
import type { Queryable } from './client.js'
import { tableOf } from './table.js'

/** Which table {@link readPostgresCaptures} reads, and which of its records it keeps. */
export interface ReadPostgresCapturesOptions {
  /** A node-postgres `Pool` (or anything with its `query`). */
  pool: Queryable
  /** The table, as given to `postgresCaptureSink`. Default `ringhook_captures`. */
  table?: string
  /** Which records to keep: event, outcome, time and id, as `readCaptures` of `@ringhook/capture` takes. */
  filter?: CaptureFilter
  /** At most this many records, the oldest that match. Default all of them. */
  limit?: number
}

/** A row whose `record` is not a captured delivery: which table, which row, and what is wrong with it. */
export class PostgresCaptureError extends Error {
  /** Always `'PostgresCaptureError'`. */
  override readonly name = 'PostgresCaptureError'
  constructor(
    message: string,
    /** The table. */
    readonly table: string,
    /** The row's `id`. */
    readonly id: string,
  ) {
    super(message)
  }
}

/** `capturedDeliverySchema`, imported when reading. */
type RecordSchema = typeof import('@ringhook/core/capture').capturedDeliverySchema

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T])
const time = (value: Date | string): number => (typeof value === 'string' ? Date.parse(value) : value.getTime())

/**
 * Reads the captured deliveries a table written by {@link postgresCaptureSink} holds, in the order
 * they arrived (`received_at`; those of one millisecond as stored), keeping those that match the
 * filter: the records for `replay()` from `@ringhook/capture`. The filter is applied in SQL, on the
 * table's columns, as `matchesCapture` applies it to a record. Every row read is checked against the
 * record's schema: one that is not a captured delivery throws {@link PostgresCaptureError} naming it.
 *
 * @example
 * import pg from 'pg'
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 * const failed = await readPostgresCaptures({ pool, filter: { outcome: 'failed', since: '2027-01-15T08:00:00Z' } })
 */
export async function readPostgresCaptures(options: ReadPostgresCapturesOptions): Promise<CapturedDelivery[]> {
  if (typeof options?.pool?.query !== 'function')
    throw new TypeError('readPostgresCaptures needs a `pool`: a node-postgres Pool')
  const { pool, filter = {}, limit } = options
  const table = tableOf(options.table ?? DEFAULT_CAPTURE_TABLE, 'readPostgresCaptures').name
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
    throw new TypeError(`readPostgresCaptures: \`limit\` must be a positive integer, got ${String(limit)}`)

  const values: unknown[] = []
  const param = (value: unknown) => {
    values.push(value)
    return `$${values.length}`
  }
  const where: string[] = []
  // As the sink wrote the columns: a NUL as U+FFFD.
  const texts = (value: string | readonly string[]) => param(list(value).map(columnText))
  if (filter.event !== undefined) where.push(`event = ANY(${texts(filter.event)}::text[])`)
  if (filter.outcome !== undefined) where.push(`outcome = ANY(${texts(filter.outcome)}::text[])`)
  if (filter.id !== undefined) where.push(`id = ANY(${texts(filter.id)}::text[])`)
  for (const [bound, operator] of [
    [filter.since, '>='],
    [filter.until, '<'],
  ] as const) {
    if (bound === undefined) continue
    const ms = time(bound)
    // As matchesCapture: a time that is none matches no record.
    if (Number.isNaN(ms)) return []
    where.push(`received_at ${operator} ${param(new Date(ms).toISOString())}::timestamptz`)
  }
  const sql = `SELECT id, record FROM ${table}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
  ORDER BY received_at, ctid${limit === undefined ? '' : ` LIMIT ${param(limit)}`}`
  const { rows } = await pool.query(sql, values)
  // Loaded when reading, not with the package: a dedup store's cold start does not build the record's schema.
  const { capturedDeliverySchema } = await import('@ringhook/core/capture')
  return (rows as { id: string; record: unknown }[]).map((row) => recordOf(capturedDeliverySchema, table, row))
}

/** A row's record, checked: a jsonb string is the record's JSON, as the sink stores text jsonb refuses. */
function recordOf(schema: RecordSchema, table: string, row: { id: string; record: unknown }): CapturedDelivery {
  let json = row.record
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json)
    } catch {
      throw new PostgresCaptureError(`${table} row ${row.id}: its \`record\` is not JSON`, table, row.id)
    }
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.map(String).join('.') || '(record)'}: ${issue.message}`)
      .join('; ')
    throw new PostgresCaptureError(`${table} row ${row.id} is not a captured delivery: ${issues}`, table, row.id)
  }
  return parsed.data
}
