import type { ClaimResult } from '@ringhook/core/store'
import { type Handler, num, storedKey, type Table, text, ttl } from './protocol.js'

// One row per delivery: `token` while in flight, plus `status` and `body` once completed. A row
// past `expires` is gone for every operation (checked on each read), and deleted by the alarm.
export const DEDUP_SCHEMA = `CREATE TABLE IF NOT EXISTS dedup (
  key TEXT PRIMARY KEY, token TEXT NOT NULL, status INTEGER, body TEXT, expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dedup_expires ON dedup (expires)`

/** The live row of `key`, if any. */
function live(table: Table, key: string) {
  return table.exec('SELECT token, status, body FROM dedup WHERE key = ? AND expires > ?', key, table.now)[0]
}

/** Args: key, token, in-flight ttl. Claims the key unless a live row holds it; then reports it. */
export const claim: Handler = (table, [key, token, inFlightTtlMs]): ClaimResult => {
  const stored = storedKey(text(key, 'key'))
  const owner = text(token, 'token')
  const expires = table.now + ttl(inFlightTtlMs, 'inFlightTtlMs')
  const row = live(table, stored)
  if (row?.status !== undefined && row.status !== null)
    return { state: 'completed', reply: { status: Number(row.status), body: String(row.body) } }
  if (row) return { state: 'in_flight' }
  table.exec('INSERT OR REPLACE INTO dedup VALUES (?, ?, NULL, NULL, ?)', stored, owner, expires)
  table.expireAt(expires)
  return { state: 'claimed', token: owner }
}

/** Args: key, token, status, body, completed ttl. Acts only while the token owns the key. */
export const complete: Handler = (table, [key, token, status, body, ttlMs]): boolean => {
  const stored = storedKey(text(key, 'key'))
  const expires = table.now + ttl(ttlMs, 'ttlMs')
  const reply = [num(status, 'status'), text(body, 'body')] as const
  const row = live(table, stored)
  if (row?.token !== text(token, 'token')) return false
  table.exec('UPDATE dedup SET status = ?, body = ?, expires = ? WHERE key = ?', ...reply, expires, stored)
  table.expireAt(expires)
  return true
}

/** Args: key, token. Acts only while the token owns the key. */
export const release: Handler = (table, [key, token]): boolean => {
  const stored = storedKey(text(key, 'key'))
  if (live(table, stored)?.token !== text(token, 'token')) return false
  table.exec('DELETE FROM dedup WHERE key = ?', stored)
  return true
}

/** Deletes the rows past their time; answers when the next one lapses, if any. */
export function sweepDedup(table: Table): number | undefined {
  table.exec('DELETE FROM dedup WHERE expires <= ?', table.now)
  const next = table.exec('SELECT MIN(expires) AS next FROM dedup')[0]?.next
  return typeof next === 'number' ? next : undefined
}
