import { createHash } from 'node:crypto'

// What the users' store writes for a `user_app_id`: the receiver takes any non-empty string, and
// `text` holds no NUL nor a lone surrogate. Unlike a dedup key (stored-key.ts), the id must be read
// back from its row, so a digested one keeps its JSON beside it.

/** A UTF-16 surrogate without its pair: UTF-8 cannot spell it, so drivers write U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

// A btree entry holds ~2.7 KB at most.
const MAX_KEY_BYTES = 2048
// Ids of up to this many UTF-16 units are at most MAX_KEY_BYTES in UTF-8 (3 bytes a unit at most).
const SURELY_SHORT = Math.floor(MAX_KEY_BYTES / 3)
const DIGESTED = 'sha256:'

/**
 * The id as a row's key, and, when the key is not the id, the id as JSON for the row's `id_json`
 * (JSON spells a NUL and a lone surrogate out; the column is not indexed, so any length fits). The key
 * is the id itself, or `sha256:` and the hex SHA-256 of its JSON when it holds a NUL or a lone
 * surrogate, is longer than 2 KiB in UTF-8, or starts with `sha256:`: a write Postgres refuses would
 * fail its delivery on every retry.
 */
export function userKey(userAppId: string): { key: string; json: string | null } {
  const plain =
    !userAppId.startsWith(DIGESTED) &&
    !userAppId.includes('\u0000') &&
    !LONE_SURROGATE.test(userAppId) &&
    (userAppId.length <= SURELY_SHORT || Buffer.byteLength(userAppId) <= MAX_KEY_BYTES)
  if (plain) return { key: userAppId, json: null }
  const json = JSON.stringify(userAppId)
  return { key: `${DIGESTED}${createHash('sha256').update(json).digest('hex')}`, json }
}
