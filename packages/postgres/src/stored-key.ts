import { createHash } from 'node:crypto'

// A btree entry holds ~2.7 KB at most, and `text` holds no NUL: a key past either would be refused
// by Postgres on every claim, and its delivery retried until the service drops it.
const MAX_KEY_BYTES = 2048
// Keys of up to this many UTF-16 units are at most MAX_KEY_BYTES in UTF-8 (3 bytes a unit at most):
// the receiver's keys (256 characters at most) are never measured.
const SURELY_SHORT = Math.floor(MAX_KEY_BYTES / 3)

/**
 * The key as it is written in the table: the key itself, or its SHA-256 (`sha256:<hex>`) when it
 * holds a NUL or is longer than 2 KiB in UTF-8, so that every key the receiver or `runOnce` is given
 * can be claimed.
 */
export function storedKey(key: string): string {
  if (key.length <= SURELY_SHORT ? !key.includes('\u0000') : fits(key)) return key
  return `sha256:${createHash('sha256').update(key).digest('hex')}`
}

const fits = (key: string) => !key.includes('\u0000') && Buffer.byteLength(key) <= MAX_KEY_BYTES
