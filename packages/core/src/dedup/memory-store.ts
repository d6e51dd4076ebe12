import { RinghookConfigError } from '../errors.js'
import type { ClaimResult, DedupStore, StoredReply } from './store.js'

export interface MemoryStoreOptions {
  /** Upper bound on remembered deliveries; the oldest are forgotten first. Default 10 000. */
  maxEntries?: number
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
}

interface Entry {
  key: string
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
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RinghookConfigError(`maxEntries must be a whole number >= 1, got ${String(maxEntries)}`)
  }
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()
  // Every claim in claim order, in a ring that grows to maxEntries slots and then wraps: the slot
  // a new claim takes holds the oldest one, forgotten unless it is gone already (released,
  // expired, claimed again). Each remembered entry owns one slot, so the Map never outgrows the
  // ring, and eviction is one array write instead of a walk over the Map.
  const ring: Entry[] = []
  let oldest = 0
  // Tokens only need to be unique within this store, so a counter does what a random UUID would.
  let claims = 0

  const live = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key)
    if (entry && entry.expiresAt <= at) {
      entries.delete(key)
      return undefined
    }
    return entry
  }

  const remember = (entry: Entry): void => {
    if (ring.length < maxEntries) ring.push(entry)
    else {
      const evicted = ring[oldest] as Entry
      if (entries.get(evicted.key) === evicted) entries.delete(evicted.key)
      ring[oldest] = entry
      oldest = oldest + 1 === maxEntries ? 0 : oldest + 1
    }
    entries.set(entry.key, entry)
  }

  return {
    get size() {
      return entries.size
    },
    // Synchronous, so deliveries through this store never wait a turn of the event loop.
    claim(key, inFlightTtlMs) {
      const at = now()
      const entry = live(key, at)
      if (entry?.reply) return { state: 'completed', reply: entry.reply }
      if (entry) return { state: 'in_flight' }
      const token = `m${++claims}`
      remember({ key, token, expiresAt: at + inFlightTtlMs })
      return { state: 'claimed', token }
    },
    complete(key, token, reply, ttlMs) {
      const at = now()
      const entry = live(key, at)
      // Updated in place: the entry keeps its slot, so eviction still goes by claim order.
      if (entry?.token !== token) return
      entry.expiresAt = at + ttlMs
      entry.reply = reply
    },
    release(key, token) {
      if (live(key, now())?.token === token) entries.delete(key)
    },
  }
}
