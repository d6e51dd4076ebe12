import { readFileSync } from 'node:fs'
import { RinghookConfigError } from '@ringhook/core'
import type { Queryable } from './client.js'
import { PostgresStoreError } from './errors.js'
import { DEFAULT_TABLE, tableOf } from './table.js'
import { describe } from './timeout.js'

/** Where the package keeps its schema, beside `dist/`: the one definition of the table. */
const SCHEMA_FILE = new URL('../sql/schema.sql', import.meta.url)

/**
 * The SQL that creates the table (`ringhook_dedup` unless told otherwise) and its index, for a
 * migration tool of your own. It is `sql/schema.sql` of this package with the table's name written in.
 *
 * @example
 * import { writeFileSync } from 'node:fs'
 * writeFileSync('migrations/0042_ringhook.sql', schemaSql({ table: 'app.ringhook_dedup' }))
 */
export function schemaSql(options: { table?: string } = {}): string {
  const table = tableOf(options.table, 'schemaSql')
  const source = readFileSync(SCHEMA_FILE, 'utf8')
  // The index first: its name holds the table's, and stays in the table's schema.
  return source
    .replaceAll(`${DEFAULT_TABLE}_expires_at`, `${table.bare}_expires_at`)
    .replaceAll(DEFAULT_TABLE, table.name)
}

/**
 * Creates the table and its index if they do not exist yet (safe to run at every start). The
 * schema of a qualified name (`app.ringhook_dedup`) must exist.
 *
 * @example
 * import pg from 'pg'
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 * await migrate(pool)
 */
export async function migrate(pool: Queryable, options: { table?: string } = {}): Promise<void> {
  if (typeof pool?.query !== 'function') {
    throw new RinghookConfigError('migrate needs a node-postgres Pool or Client as its first argument')
  }
  // One text is one implicit transaction: the lock makes instances that start together migrate in
  // turn (two concurrent CREATE TABLE IF NOT EXISTS can fail on each other).
  const sql = `SELECT pg_advisory_xact_lock(hashtextextended('ringhook:migrate', 0));\n${schemaSql(options)}`
  try {
    await pool.query(sql)
  } catch (error) {
    throw new PostgresStoreError('migrate', describe(error), { cause: error })
  }
}
