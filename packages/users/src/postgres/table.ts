import { RinghookConfigError } from '@ringhook/core'

/**
 * The table every function of this entry uses unless told otherwise.
 *
 * @deprecated Import `DEFAULT_USERS_TABLE` from `@ringhook/postgres`; this copy is removed in 0.3.0.
 */
export const DEFAULT_USERS_TABLE = 'ringhook_users'

// Lower-case names need no quoting, and a name made of these can never carry SQL.
const PART = '[a-z_][a-z0-9_]{0,49}'
const NAME = new RegExp(`^(?:${PART}\\.)?${PART}$`)

/** Checks a table name; throws `RinghookConfigError` for anything but a lower-case identifier. */
export function tableName(name: string | undefined, caller: string): string {
  const table = name ?? DEFAULT_USERS_TABLE
  if (typeof table !== 'string' || !NAME.test(table)) {
    throw new RinghookConfigError(
      `${caller}: \`table\` must be a lower-case identifier, optionally schema-qualified, got ${JSON.stringify(table)}`,
    )
  }
  return table
}

/**
 * The states' table: one row per user. `stamp` is what the ordering rule compares (the time, the
 * event or API answer that set the state, whether it is a guess, packed in one number); `state`,
 * `since`, `source` and `uncertain` say the same for people and for SQL of the app's own.
 * `user_app_id` is the id, or `sha256:<hex>` for one Postgres cannot index as it is (a NUL, a lone
 * surrogate, over 2 KiB), whose `id_json` then holds the id as JSON (added to an older table).
 *
 * @example await pool.query(usersSchemaSql({ table: 'ringhook_users' }))
 *
 * @deprecated Import `usersSchemaSql` from `@ringhook/postgres`; this copy is removed in 0.3.0.
 */
export function usersSchemaSql(options: { table?: string } = {}): string {
  const table = tableName(options.table, 'usersSchemaSql')
  const bare = table.split('.').pop() as string
  return `CREATE TABLE IF NOT EXISTS ${table} (
  user_app_id text PRIMARY KEY,
  state text NOT NULL,
  since timestamptz NOT NULL,
  source text NOT NULL,
  uncertain boolean NOT NULL,
  stamp bigint NOT NULL,
  id_json text
);
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS id_json text;
CREATE INDEX IF NOT EXISTS ${bare}_state ON ${table} (state, user_app_id);`
}
