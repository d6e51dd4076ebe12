import {
  decide,
  pack,
  type Stamp,
  type StateCounts,
  type StoreResult,
  statusOf,
  type UserStore,
  unpack,
  viewOf,
} from '@ringhook/users/store'
import type { PoolLike, Queryable } from './client.js'
import { userKey } from './user-key.js'
import { usersSchemaSql, usersTableName } from './user-table.js'

/** Where {@link postgresUserStore} keeps states. */
export interface PostgresUserStoreOptions {
  /** A node-postgres `Pool`: what a state is written with when no transaction is given. */
  pool: PoolLike
  /** The table, made by `migrateUserStates`. Default `ringhook_users`. */
  table?: string
}

/**
 * Users' states (`@ringhook/users`) on Postgres. `apply(event, tx)` writes in the transaction given:
 * with this package's inbox, the delivery's, so the state, the handler's writes and the delivery's
 * claim commit together or not at all. Each user's compare-and-set holds a transaction-scoped advisory lock on the user, so
 * instances applying one user's events at once take turns and agree.
 *
 * @example
 * import { createUserStates, LIFECYCLE_EVENTS } from '@ringhook/users'
 * const inbox = createPostgresInbox({ pool })
 * const users = createUserStates({ store: postgresUserStore({ pool }) })
 * receiver.on(
 *   LIFECYCLE_EVENTS,
 *   inbox.handler(async (event, tx) => {
 *     await users.apply(event, tx)
 *   }),
 * )
 */
export function postgresUserStore(options: PostgresUserStoreOptions): UserStore<Queryable> {
  const { pool } = options
  const table = usersTableName(options.table, 'postgresUserStore')
  const lock = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))'
  const read = `SELECT stamp FROM ${table} WHERE user_app_id = $1`
  const write = `INSERT INTO ${table} AS u (user_app_id, state, since, source, uncertain, stamp, id_json)
  VALUES ($1, $2, to_timestamp($3::double precision / 1000), $4, $5, $6, $7)
  ON CONFLICT (user_app_id) DO UPDATE SET state = excluded.state, since = excluded.since,
    source = excluded.source, uncertain = excluded.uncertain, stamp = excluded.stamp, id_json = excluded.id_json`

  // Rows are keyed by userKey(id): the id, or its digest when Postgres cannot index it as it is.
  const compareAndSet = async (tx: Queryable, userAppId: string, seen: Stamp, marginMs: number) => {
    const { key, json } = userKey(userAppId)
    await tx.query(lock, [`${table}:${key}`])
    const { rows } = await tx.query(read, [key])
    const stored = (rows[0] as { stamp: string } | undefined)?.stamp
    const before = stored === undefined ? undefined : unpack(Number(stored))
    const { verdict, next } = decide(before, seen, marginMs)
    const packed = pack(next)
    if (packed !== (stored === undefined ? undefined : Number(stored))) {
      const view = viewOf(userAppId, next)
      await tx.query(write, [key, view.state, next.at, view.source, next.uncertain, packed, json])
    }
    return { verdict, before, after: next } satisfies StoreResult
  }

  return {
    async apply(userAppId, seen, marginMs, tx) {
      if (tx) return compareAndSet(tx, userAppId, seen, marginMs)
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await compareAndSet(client, userAppId, seen, marginMs)
        await client.query('COMMIT')
        client.release()
        return result
      } catch (error) {
        // A connection that failed mid-transaction is not given back to be reused.
        await client.query('ROLLBACK').catch(() => {})
        client.release(error instanceof Error ? error : true)
        throw error
      }
    },
    async get(userAppId) {
      const { rows } = await pool.query(read, [userKey(userAppId).key])
      const stored = (rows[0] as { stamp: string } | undefined)?.stamp
      return stored === undefined ? undefined : unpack(Number(stored))
    },
    // Keyset pages in id order: each page is one indexed query, however many users there are.
    async *pages(status, pageSize) {
      let after = ''
      for (;;) {
        const { rows } = await pool.query(
          `SELECT user_app_id, id_json, stamp FROM ${table} WHERE state = $1 AND user_app_id > $2 ORDER BY user_app_id LIMIT $3`,
          [status, after, pageSize],
        )
        const found = rows as Array<{ user_app_id: string; id_json: string | null; stamp: string }>
        const page = found.map(
          (row) =>
            [
              row.id_json === null ? row.user_app_id : (JSON.parse(row.id_json) as string),
              unpack(Number(row.stamp)),
            ] as const,
        )
        if (page.length > 0) yield page.filter(([, stamp]) => statusOf(stamp.cause) === status)
        if (found.length < pageSize) return
        after = (found[found.length - 1] as { user_app_id: string }).user_app_id
      }
    },
    async count(): Promise<StateCounts> {
      const { rows } = await pool.query(
        `SELECT state, count(*)::int AS n FROM ${table} WHERE state <> 'uninstalled' GROUP BY state`,
      )
      const counts: StateCounts = { active: 0, passive: 0, inactive: 0 }
      for (const row of rows as Array<{ state: keyof StateCounts; n: number }>) counts[row.state] = row.n
      return counts
    },
  }
}

/**
 * Creates the states' table if it is not there (`usersSchemaSql`): safe at every start, by many
 * instances at once.
 *
 * @example await migrateUserStates(pool)
 */
export async function migrateUserStates(pool: Queryable, options: { table?: string } = {}): Promise<void> {
  const sql = usersSchemaSql({ table: usersTableName(options.table, 'migrateUserStates') })
  // Two instances creating the table at once can collide in Postgres' catalog: a lock serializes them.
  // Statements sent together without parameters run in one implicit transaction, which holds the lock.
  await pool.query(`SELECT pg_advisory_xact_lock(hashtextextended('ringhook_users_migrate', 0));\n${sql}`)
}
