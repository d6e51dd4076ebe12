import { type Cause, decide, type Stamp, type StoreResult, type UserStatus } from '@ringhook/users/store'
import type { SqlValue } from './bindings.js'
import { type Handler, keyOf, num, storedKey, type Table, text } from './protocol.js'

// One row per user: its stamp, and the state it leads to (indexed, for counts and pages). Users are
// never forgotten: an uninstalled one stays, so that its late events are stale, as on Redis.
export const USERS_SCHEMA = `CREATE TABLE IF NOT EXISTS users (
  user TEXT PRIMARY KEY, at INTEGER NOT NULL, coarse INTEGER NOT NULL, cause INTEGER NOT NULL,
  uncertain INTEGER NOT NULL, status TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS users_status ON users (status, user)`

/** The state each cause leads to: the four lifecycle events, uninstalled, then the API's four answers. */
const STATUS: readonly UserStatus[] = [
  'inactive',
  'active',
  'passive',
  'inactive',
  'uninstalled',
  'active',
  'passive',
  'inactive',
  'uninstalled',
]

const statusOf = (stamp: Stamp): UserStatus => STATUS[stamp.cause] as UserStatus

const stampOf = (row: Record<string, SqlValue>): Stamp => ({
  at: Number(row.at),
  coarse: row.coarse === 1,
  cause: Number(row.cause) as Cause,
  uncertain: row.uncertain === 1,
})

/** A stamp as sent, checked field by field. */
function seenStamp(value: unknown): Stamp {
  const stamp = (value ?? {}) as Partial<Stamp>
  const cause = num(stamp.cause, 'stamp.cause')
  if (!Number.isInteger(cause) || cause < 0 || cause >= STATUS.length) throw new TypeError('stamp.cause must be 0 to 8')
  return {
    at: num(stamp.at, 'stamp.at'),
    coarse: stamp.coarse === true,
    cause: cause as Cause,
    uncertain: stamp.uncertain === true,
  }
}

const read = (table: Table, user: string): Stamp | undefined => {
  const row = table.exec('SELECT at, coarse, cause, uncertain FROM users WHERE user = ?', user)[0]
  return row ? stampOf(row) : undefined
}

/** Args: user, stamp seen, margin. The ordering rule (`decide`), applied and stored in one step. */
export const apply: Handler = (table, [userAppId, seen, marginMs]): StoreResult => {
  const user = storedKey(text(userAppId, 'userAppId'))
  const before = read(table, user)
  const { verdict, next } = decide(before, seenStamp(seen), num(marginMs, 'marginMs'))
  table.exec(
    'INSERT OR REPLACE INTO users VALUES (?, ?, ?, ?, ?, ?)',
    user,
    next.at,
    next.coarse ? 1 : 0,
    next.cause,
    next.uncertain ? 1 : 0,
    statusOf(next),
  )
  return { verdict, before, after: next }
}

/** Args: user. Its stamp, or `null` for one never seen. */
export const get: Handler = (table, [userAppId]): Stamp | null =>
  read(table, storedKey(text(userAppId, 'userAppId'))) ?? null

/** Args: status, the last user of the previous page (or `null`), page size. The next page, in key order. */
export const page: Handler = (table, [status, after, size]): Array<[string, Stamp]> => {
  const rows = table.exec(
    'SELECT user, at, coarse, cause, uncertain FROM users WHERE status = ? AND user > ? ORDER BY user LIMIT ?',
    text(status, 'status'),
    after === null ? '' : storedKey(text(after, 'after')),
    Math.max(1, Math.floor(num(size, 'pageSize'))),
  )
  return rows.map((row) => [keyOf(row.user ?? null), stampOf(row)])
}

/** The users in each state. */
export const count: Handler = (table): Record<UserStatus, number> => {
  const counts: Record<UserStatus, number> = { active: 0, passive: 0, inactive: 0, uninstalled: 0 }
  for (const row of table.exec('SELECT status, COUNT(*) AS n FROM users GROUP BY status'))
    counts[row.status as UserStatus] = Number(row.n)
  return counts
}
