import { RinghookConfigError } from '@ringhook/core'

/** How many objects the dedup and users' stores spread over unless told otherwise. */
export const DEFAULT_SHARDS = 16

/** The largest number of shards a store accepts: each of `count()`'s calls is one per shard. */
export const MAX_SHARDS = 1024

/**
 * The shard of `key` among `shards`: FNV-1a over its UTF-16 code units. Any instance, on any
 * runtime, maps a key to the same shard, so a delivery's copies always meet in one object.
 */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % shards
}

/** `shards` as given, checked, or the default. */
export function shardCount(shards: number | undefined, caller: string): number {
  const count = shards ?? DEFAULT_SHARDS
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS) {
    throw new RinghookConfigError(`${caller}: shards must be a whole number from 1 to ${MAX_SHARDS}, got ${count}`)
  }
  return count
}
