import { createHash } from 'node:crypto'

// A lone surrogate has no UTF-8 form: the SDK would send U+FFFD in its place, and two keys differing
// only there would be one item.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * `prefix + key` as it is written in a key attribute: as it is, or with the SHA-256 of the key's UTF-16
 * (`sha256:<hex>`) when the whole is longer than `maxBytes` in UTF-8 (DynamoDB refuses a partition
 * key past 2048 bytes, a sort key past 1024) or the key holds a lone surrogate. So every key a store
 * is given can be written, and two keys are never written as one.
 */
export function storedKey(prefix: string, key: string, maxBytes: number): string {
  // Up to this many UTF-16 units a string is at most maxBytes in UTF-8 (3 bytes a unit at most).
  const surelyShort = prefix.length + key.length <= Math.floor(maxBytes / 3)
  if ((surelyShort || Buffer.byteLength(prefix + key) <= maxBytes) && !LONE_SURROGATE.test(key)) return prefix + key
  return `${prefix}sha256:${createHash('sha256').update(key, 'utf16le').digest('hex')}`
}

/** DynamoDB's limits on a key attribute's size, in bytes of UTF-8. */
export const PARTITION_KEY_BYTES = 2048
export const SORT_KEY_BYTES = 1024
