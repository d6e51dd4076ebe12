import type { ClaimResult, DedupStore, StoredReply } from './store.js'

export interface MemoryStoreOptions {
  /** Upper bound on remembered deliveries; the oldest are forgotten first. Default 10 000. */
  maxEntries?: number
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
}

interface Entry {
  token: string
  expiresAt: number
  reply?: StoredReply
}

/** The memory store: synchronous, since nothing it does waits. */
export interface MemoryStore extends DedupStore {
  claim(key: string, inFlightTtlMs: number): ClaimResult
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): void
  release(key: string, token: string): void
  /** How many deliveries it remembers now. */
  readonly size: number
}

/**
 * The default store: one process's memory, bounded by count and by time. Use
 * `@ringhook/redis` when more than one instance receives the same app's webhooks.
 *
 * @example
 * createReceiver({ secret, store: createMemoryStore({ maxEntries: 50_000 }) })
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  // A Map iterates in insertion order, so its first key is always the oldest entry.
  const entries = new Map<string, Entry>()
  // Walks the Map from its oldest entry and is kept between evictions: a fresh keys() iterator
  // would rescan every slot freed by earlier evictions, a cost that grows with the store's size.
  let oldest = entries.keys()
  // Tokens only need to be unique within this store, so a counter does what a random UUID would.
  let claims = 0

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key)
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    return entry
  }

  const put = (key: string, entry: Entry): void => {
    entries.delete(key)
    entries.set(key, entry)
    while (entries.size > maxEntries) {
      let next = oldest.next()
      if (next.done) {
        oldest = entries.keys()
        next = oldest.next()
      }
      entries.delete(next.value as string)
    }
  }

  return {
    get size() {
      return entries.size
    },
    // Synchronous, so deliveries through this store never wait a turn of the event loop.
    claim(key, inFlightTtlMs) {
      const entry = live(key)
      if (entry?.reply) return { state: 'completed', reply: entry.reply }
      if (entry) return { state: 'in_flight' }
      const token = `m${++claims}`
      put(key, { token, expiresAt: now() + inFlightTtlMs })
      return { state: 'claimed', token }
    },
    complete(key, token, reply, ttlMs) {
      // Updated in place: the entry keeps its age, so eviction still goes by claim order.
      const entry = live(key)
      if (entry?.token !== token) return
      entry.expiresAt = now() + ttlMs
      entry.reply = reply
    },
    release(key, token) {
      if (live(key)?.token === token) entries.delete(key)
    },
  }
}
