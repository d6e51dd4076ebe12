import { checkedTableName } from './table.js'

/** The users' states' table unless told otherwise. */
export const DEFAULT_USERS_TABLE = 'ringhook_users'

/** Checks the users' table name; throws `RinghookConfigError` for anything but a lower-case identifier. */
export const usersTableName = (name: string | undefined, caller: string): string =>
  checkedTableName(name, DEFAULT_USERS_TABLE, caller)

/**
 * The users' states' table: one row per user. `stamp` is what the ordering rule compares (the time,
 * the event or API answer that set the state, whether it is a guess, packed in one number); `state`,
 * `since`, `source` and `uncertain` say the same for people and for SQL of the app's own.
 * `user_app_id` is the id, or `sha256:<hex>` for one Postgres cannot index as it is (a NUL, a lone
 * surrogate, over 2 KiB), whose `id_json` then holds the id as JSON (added to an older table).
 *
 * @example await pool.query(usersSchemaSql({ table: 'ringhook_users' }))
 */
export function usersSchemaSql(options: { table?: string } = {}): string {
  const table = usersTableName(options.table, 'usersSchemaSql')
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
