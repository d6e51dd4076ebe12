import { RinghookConfigError } from '@ringhook/core'

/** The table every function of this package uses unless told otherwise. */
export const DEFAULT_TABLE = 'ringhook_dedup'

// Lower-case names need no quoting, and a name made of these can never carry SQL. 50 characters
// leave room for the index's `_expires_at` within Postgres' 63.
const PART = '[a-z_][a-z0-9_]{0,49}'
const NAME = new RegExp(`^(?:${PART}\\.)?${PART}$`)

/** The statements of one table, its name checked once and written into each. */
export interface Table {
  /** The name as given: `table` or `schema.table`. */
  readonly name: string
  /** The table's own name, without its schema: what the index is named after. */
  readonly bare: string
  /** Claims or reports a key in one statement. $1 key, $2 token, $3 ttl (ms). */
  readonly claim: string
  /** The inbox's claim: its advisory lock, then the same upsert. $1 key, $2 token, $3 ttl (ms). */
  readonly lockAndClaim: string
  /**
   * Records a reply while `token` owns the key. $1 key, $2 token, $3 status, $4 body, $5 ttl (ms),
   * $6 how long copies wait for the receiver's own reply (ms), or null when this is it.
   */
  readonly complete: string
  /** Forgets a claim while `token` owns the key. $1 key, $2 token. */
  readonly release: string
  /** Deletes at most $1 expired rows, skipping rows another session holds. */
  readonly sweep: string
}

/** Checks a table name (`fallback` when none is given). Throws `RinghookConfigError` for a bad one. */
export function checkedTableName(name: string | undefined, fallback: string, caller: string): string {
  const table = name ?? fallback
  if (typeof table !== 'string' || !NAME.test(table)) {
    throw new RinghookConfigError(
      `${caller}: \`table\` must be a lower-case identifier, optionally schema-qualified (letters, digits, _; at most 50 characters each), got ${JSON.stringify(table)}`,
    )
  }
  return table
}

/** Checks a table name and writes its statements. Throws `RinghookConfigError` for a bad name. */
export function tableOf(name: string | undefined, caller: string): Table {
  const table = checkedTableName(name, DEFAULT_TABLE, caller)
  const ms = (param: string) => `now() + ${param} * interval '1 millisecond'`
  // The one write every claim makes: a new row, or an expired one taken over. A live row is
  // written back as it is, so that RETURNING shows it (and its latest committed version) in the
  // same statement; `claimed` says whether this token now owns it. A row whose reply is due (an
  // inbox handler committed, the receiver is about to record its reply) shows as in flight.
  const upsert = (from: string) => `INSERT INTO ${table} AS d (key, token, expires_at) SELECT $1, $2, ${ms('$3')}${from}
  ON CONFLICT (key) DO UPDATE SET
    token = CASE WHEN d.expires_at <= now() THEN excluded.token ELSE d.token END,
    status = CASE WHEN d.expires_at <= now() THEN NULL ELSE d.status END,
    body = CASE WHEN d.expires_at <= now() THEN NULL ELSE d.body END,
    reply_due = CASE WHEN d.expires_at <= now() THEN NULL ELSE d.reply_due END,
    expires_at = CASE WHEN d.expires_at <= now() THEN excluded.expires_at ELSE d.expires_at END
  RETURNING d.token = $2 AS claimed, CASE WHEN d.reply_due > now() THEN NULL ELSE d.status END AS status, d.body`
  return Object.freeze({
    name: table,
    bare: table.split('.').pop() as string,
    claim: upsert(''),
    // Try-lock, never wait: a delivery whose transaction is open elsewhere is answered 409 at once.
    // The lock is the table's and the key's, and lasts as long as the transaction. A copy that finds
    // it taken still reads a committed reply: copies of a done delivery that arrive together (each
    // holding the lock a moment to look) are all answered as duplicates.
    lockAndClaim: `WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtextextended('${table}:' || $1, 0)) AS got),
  claim AS (${upsert(' FROM lock WHERE got')}),
  done AS (SELECT status, body FROM ${table} WHERE key = $1 AND status IS NOT NULL AND expires_at > now()
    AND (reply_due IS NULL OR reply_due <= now()))
SELECT lock.got, coalesce(claim.claimed, false) AS claimed,
  CASE WHEN lock.got THEN claim.status ELSE done.status END AS status,
  CASE WHEN lock.got THEN claim.body ELSE done.body END AS body
FROM lock LEFT JOIN claim ON true LEFT JOIN done ON NOT lock.got`,
    complete: `UPDATE ${table} SET status = $3, body = $4, expires_at = ${ms('$5')}, reply_due = ${ms('$6')}
  WHERE key = $1 AND token = $2`,
    release: `DELETE FROM ${table} WHERE key = $1 AND token = $2`,
    sweep: `DELETE FROM ${table} WHERE key IN (
  SELECT key FROM ${table} WHERE expires_at < now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  })
}
