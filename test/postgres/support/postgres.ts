import { randomUUID } from 'node:crypto'
import { migrate } from '@ringhook/postgres'
import pg from 'pg'

/** The Postgres every Postgres suite shares; CI starts it before the tests. */
export const SHARED_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test'

/**
 * A pool on the shared Postgres, failing loudly when none answers: these suites prove the stores
 * against a real server and are never skipped.
 */
export async function connectPostgres(options: pg.PoolConfig = {}): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: SHARED_POSTGRES, ...options })
  // Terminated connections are part of some tests: failures surface through queries.
  pool.on('error', () => {})
  try {
    await pool.query('SELECT 1')
  } catch (error) {
    await pool.end().catch(() => {})
    throw new Error(
      `No Postgres answers at ${SHARED_POSTGRES} (${(error as Error).message}). The Postgres suites need a real one and never skip: start it with \`pg_ctlcluster $(ls /etc/postgresql) main start\` and create the database \`test\`.`,
    )
  }
  return pool
}

/** A table name no other test uses, so suites running in parallel never meet. */
export const uniqueTable = (label: string): string => `rh_${label}_${randomUUID().replaceAll('-', '').slice(0, 16)}`

/** A fresh table of the package's schema, named for this test alone. */
export async function freshTable(pool: pg.Pool, label: string): Promise<string> {
  const table = uniqueTable(label)
  await migrate(pool, { table })
  return table
}

/** Drops a test's table. */
export async function dropTable(pool: pg.Pool, table: string): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${table}`)
}
