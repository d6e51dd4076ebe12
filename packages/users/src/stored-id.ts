import { createHash } from 'node:crypto'

// What the Redis and Postgres stores write for a `user_app_id`: the receiver takes any non-empty
// string, and not every string survives a store as it is.

/** A UTF-16 surrogate without its pair: UTF-8 cannot spell it, so drivers write U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Marks a Redis field written as JSON; no id is written as it is with it first. */
const ESCAPE = '\u0000'

/**
 * The id as a Redis field and set member. Redis holds any bytes (a NUL, any length), but a client
 * writes a string as UTF-8, which turns every lone surrogate into the same U+FFFD: two users would
 * become one. Such an id (and one that starts with the mark) is written as the mark and its JSON,
 * which spells each surrogate out.
 */
export function redisField(userAppId: string): string {
  return userAppId.startsWith(ESCAPE) || LONE_SURROGATE.test(userAppId)
    ? `${ESCAPE}${JSON.stringify(userAppId)}`
    : userAppId
}

/** The id a Redis field stands for. */
export function idOfRedisField(field: string): string {
  return field.startsWith(ESCAPE) ? (JSON.parse(field.slice(1)) as string) : field
}

// A btree entry holds ~2.7 KB at most, and `text` holds no NUL nor a lone surrogate.
const MAX_KEY_BYTES = 2048
// Ids of up to this many UTF-16 units are at most MAX_KEY_BYTES in UTF-8 (3 bytes a unit at most).
const SURELY_SHORT = Math.floor(MAX_KEY_BYTES / 3)
const DIGESTED = 'sha256:'

/**
 * The id as a Postgres row's key, and, when the key is not the id, the id as JSON for the row's
 * `id_json` (JSON spells a NUL and a lone surrogate out; the column is not indexed, so any length
 * fits). The key is the id itself, or `sha256:` and the hex SHA-256 of its JSON when it holds a NUL
 * or a lone surrogate, is longer than 2 KiB in UTF-8, or starts with `sha256:`: a write Postgres
 * refuses would fail its delivery on every retry.
 */
export function postgresKey(userAppId: string): { key: string; json: string | null } {
  const plain =
    !userAppId.startsWith(DIGESTED) &&
    !userAppId.includes('\u0000') &&
    !LONE_SURROGATE.test(userAppId) &&
    (userAppId.length <= SURELY_SHORT || Buffer.byteLength(userAppId) <= MAX_KEY_BYTES)
  if (plain) return { key: userAppId, json: null }
  const json = JSON.stringify(userAppId)
  return { key: `${DIGESTED}${createHash('sha256').update(json).digest('hex')}`, json }
}
