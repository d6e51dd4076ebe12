import type { TakeResult } from '@ringhook/client/store'
import { type Handler, num, storedKey, type Table, text } from './protocol.js'

// The Redis store's scripts (@ringhook/redis, limit-scripts.ts), in one object per API key, on the
// object's clock. A window is a log of the slots taken in it (one row per slot, its member the
// ticket): a sliding-window log, exact to the slot. Waiters for the key stand in a line, served in
// the order they arrived; a place lapses when its waiter does not come back in time. Pauses are
// rows that hold until their time. Every row carries when it lapses: the alarm deletes it then.
export const LIMITS_SCHEMA = `CREATE TABLE IF NOT EXISTS limit_slots (
  log TEXT NOT NULL, member TEXT NOT NULL, at INTEGER NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (log, member)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS limit_slots_at ON limit_slots (log, at, member);
CREATE INDEX IF NOT EXISTS limit_slots_expires ON limit_slots (expires);
CREATE TABLE IF NOT EXISTS limit_line (ticket TEXT PRIMARY KEY, arrived INTEGER NOT NULL, deadline INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS limit_pauses (name TEXT PRIMARY KEY, until INTEGER NOT NULL)`

const KEY_LOG = 'key'
const KEY_PAUSE = 'key'
/** The line's own lapse time, kept among the pauses: the whole line lapses when no waiter came back. */
const LINE = '#line'
const userLog = (user: string) => `user:${storedKey(user)}`

/** One rule as sent: limit 0 for none. */
const rule = (value: unknown, what: string) => {
  const { limit, windowMs } = (value ?? {}) as { limit?: unknown; windowMs?: unknown }
  return { limit: num(limit, `${what}.limit`), window: num(windowMs, `${what}.windowMs`) }
}

function helpers(table: Table) {
  const { now } = table
  return {
    pausedFor(name: string): number {
      const until = table.exec('SELECT until FROM limit_pauses WHERE name = ?', name)[0]?.until
      return typeof until === 'number' && until > now ? until - now : 0
    },
    prune(log: string, window: number): void {
      table.exec('DELETE FROM limit_slots WHERE log = ? AND at <= ?', log, now - window)
    },
    used(log: string): number {
      return Number(table.exec('SELECT COUNT(*) AS n FROM limit_slots WHERE log = ?', log)[0]?.n ?? 0)
    },
    /** Ms until the `nth` (0-based, oldest first) slot of a log frees; 0 if free; a window if not in it yet. */
    freesIn(log: string, nth: number, window: number): number {
      if (nth < 0) return 0
      const at = table.exec(
        'SELECT at FROM limit_slots WHERE log = ? ORDER BY at, member LIMIT 1 OFFSET ?',
        log,
        nth,
      )[0]?.at
      return typeof at === 'number' ? at + window - now : window
    },
    record(log: string, member: string, at: number, window: number): void {
      table.exec('INSERT OR REPLACE INTO limit_slots VALUES (?, ?, ?, ?)', log, member, at, at + window)
      table.expireAt(at + window)
    },
    leaveLine(ticket: string): void {
      table.exec('DELETE FROM limit_line WHERE ticket = ?', ticket)
    },
  }
}

/**
 * Args: ticket, user (or `null`), key rule and user rule (limit 0: none), max wait (-1: none), grace.
 * Takes a slot under both rules, or says which is in the way and for how long: the Redis TAKE script.
 */
export const take: Handler = (table, [ticketArg, userArg, keyRule, userRule, maxWaitArg, graceArg]): TakeResult => {
  const ticket = text(ticketArg, 'ticket')
  const key = rule(keyRule, 'key')
  const perUser = rule(userRule, 'user')
  const [maxWait, grace] = [num(maxWaitArg, 'maxWaitMs'), num(graceArg, 'graceMs')]
  const { now } = table
  const h = helpers(table)
  const log = userArg === null ? undefined : userLog(text(userArg, 'user'))
  if (log && perUser.limit > 0) {
    h.prune(log, perUser.window)
    const wait = Math.max(
      h.freesIn(log, h.used(log) - perUser.limit, perUser.window),
      h.pausedFor(`user:${storedKey(String(userArg))}`),
    )
    if (wait > 0) {
      h.leaveLine(ticket)
      return { ok: false, scope: 'user', waitMs: Math.max(1, Math.ceil(wait)) }
    }
  }
  if (key.limit > 0) {
    h.prune(KEY_LOG, key.window)
    if (h.pausedFor(LINE) === 0) table.exec('DELETE FROM limit_line')
    else table.exec('DELETE FROM limit_line WHERE deadline <= ?', now)
    const free = key.limit - h.used(KEY_LOG)
    const mine = table.exec('SELECT arrived FROM limit_line WHERE ticket = ?', ticket)[0]?.arrived
    const place = Number(
      (typeof mine === 'number'
        ? table.exec(
            'SELECT COUNT(*) AS n FROM limit_line WHERE arrived < ? OR (arrived = ? AND ticket < ?)',
            mine,
            mine,
            ticket,
          )
        : table.exec('SELECT COUNT(*) AS n FROM limit_line'))[0]?.n ?? 0,
    )
    const wait = Math.max(h.freesIn(KEY_LOG, place - free, key.window), h.pausedFor(KEY_PAUSE))
    if (wait > 0) {
      if (maxWait >= 0 && wait > maxWait) h.leaveLine(ticket)
      else {
        const deadline = now + wait + grace
        table.exec(
          'INSERT INTO limit_line VALUES (?, ?, ?) ON CONFLICT (ticket) DO UPDATE SET deadline = excluded.deadline',
          ticket,
          now,
          deadline,
        )
        table.exec('INSERT OR REPLACE INTO limit_pauses VALUES (?, ?)', LINE, now + key.window + grace)
        table.expireAt(Math.min(deadline, now + key.window + grace))
      }
      return { ok: false, scope: 'key', waitMs: Math.max(1, Math.ceil(wait)) }
    }
    h.leaveLine(ticket)
    h.record(KEY_LOG, ticket, now, key.window)
  }
  if (log && perUser.limit > 0) h.record(log, ticket, now, perUser.window)
  return { ok: true }
}

/** Args: scope, user (or `null`), ms. Lengthens a pause, never shortens it. */
export const pause: Handler = (table, [scope, user, ms]) => {
  const name = scope === 'key' || user === null ? KEY_PAUSE : `user:${storedKey(text(user, 'user'))}`
  const until = table.now + Math.ceil(num(ms, 'ms'))
  table.exec(
    'INSERT INTO limit_pauses VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET until = MAX(until, excluded.until)',
    name,
    until,
  )
  table.expireAt(until)
  return true
}

/** Args: user, rule. The vibes the user may still be sent now. */
export const remaining: Handler = (table, [userArg, userRule]): number => {
  const user = text(userArg, 'user')
  const { limit, window } = rule(userRule, 'rule')
  const h = helpers(table)
  if (h.pausedFor(`user:${storedKey(user)}`) > 0) return 0
  h.prune(userLog(user), window)
  return Math.max(0, limit - h.used(userLog(user)))
}

/** Args: ticket. Gives up a waiter's place in line. */
export const leave: Handler = (table, [ticket]) => {
  helpers(table).leaveLine(text(ticket, 'ticket'))
  return true
}

/** Args: a list of [user (or `null` for the key's log), window, [age, member] pairs]. Counts slots taken elsewhere. */
export const restore: Handler = (table, [logs]) => {
  if (!Array.isArray(logs)) throw new TypeError('logs must be a list')
  const h = helpers(table)
  for (const [user, windowArg, entries] of logs as Array<[unknown, unknown, Array<[unknown, unknown]>]>) {
    const log = user === null ? KEY_LOG : userLog(text(user, 'user'))
    const window = num(windowArg, 'window')
    for (const [age, member] of entries) {
      const at = table.now - num(age, 'age')
      if (at > table.now - window) h.record(log, text(member, 'member'), at, window)
    }
  }
  return true
}

/** Deletes slots, pauses and places past their time; answers when the next one lapses, if any. */
export function sweepLimits(table: Table): number | undefined {
  const { now } = table
  table.exec('DELETE FROM limit_slots WHERE expires <= ?', now)
  table.exec('DELETE FROM limit_pauses WHERE until <= ?', now)
  table.exec('DELETE FROM limit_line WHERE deadline <= ?', now)
  const next = table.exec(`SELECT MIN(t) AS next FROM (
    SELECT MIN(expires) AS t FROM limit_slots UNION ALL SELECT MIN(until) FROM limit_pauses
    UNION ALL SELECT MIN(deadline) FROM limit_line)`)[0]?.next
  return typeof next === 'number' ? next : undefined
}
