import { RinghookConfigError } from '../errors.js'
import { characterBytes, ENTRY_BYTES, REPLY_RESERVE_BYTES, replyBytes } from './memory-cost.js'
import { SharedReplies } from './shared-replies.js'
import type { ClaimResult, DedupStore, StoredReply } from './store.js'

/** How much memory the in-process store may use, and its clock. */
export interface MemoryStoreOptions {
  /**
   * Memory budget of the store, in bytes of heap. Deliveries are remembered until their ttl has
   * passed, never forgotten sooner; when the budget is full of such deliveries, a new one is
   * answered 503 `store_full` and the service retries it. Default 40 MiB: at least 100 000
   * deliveries (keys up to 150 characters), over 110 a second for the default 15-minute window.
   */
  maxBytes?: number
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
}

/** The memory store's default budget: 40 MiB. */
export const DEFAULT_MEMORY_STORE_BYTES = 40 * 1024 * 1024

/** The smallest budget: room for a few deliveries with the longest keys and replies. */
const MIN_BYTES = 16 * 1024

/** Expiry is swept one bucket of this many milliseconds at a time. */
const BUCKET_MS = 1000

interface Entry {
  readonly key: string
  /** The claim's number; the token handed out is `m<id>`. A number costs no allocation. */
  readonly id: number
  /** When the store may forget it, in ms since the store was created (a small integer). */
  expiresAt: number
  /** The expiry bucket that owns it and will uncharge it; -1 once uncharged. */
  bucket: number
  reply: StoredReply | undefined
}

/** The memory store: synchronous, since nothing it does waits. */
export interface MemoryStore extends DedupStore {
  claim(key: string, inFlightTtlMs: number): ClaimResult
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): void
  release(key: string, token: string): void
  /** How many deliveries it remembers now. */
  readonly size: number
  /** Heap bytes charged to its budget now: an upper bound of what it holds, never over `maxBytes`. */
  readonly bytes: number
  /** Its budget. */
  readonly maxBytes: number
}

/**
 * The default store: one process's memory, bounded by a budget in bytes. A delivery is kept for
 * its whole ttl whatever the volume: when there is no room left, a new delivery is refused
 * (`full`, answered 503 and retried) rather than an old one forgotten. Use `@ringhook/redis` when
 * more than one instance receives the same app's webhooks.
 *
 * @example
 * createReceiver({ secret, store: createMemoryStore({ maxBytes: 128 * 1024 * 1024 }) })
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxBytes = budget(options)
  const clock = options.now ?? Date.now
  // Times relative to creation stay small integers, which V8 stores without a heap number.
  const origin = clock()
  const now = (): number => clock() - origin
  const entries = new Map<string, Entry>()
  const expiry = new ExpiryBuckets()
  const replies = new SharedReplies()
  let entryBytes = 0
  let claims = 0

  const replyCost = (reply: StoredReply | undefined): number =>
    reply ? (replies.holds(reply) ? 0 : replyBytes(reply)) : REPLY_RESERVE_BYTES
  const cost = (entry: Entry): number => ENTRY_BYTES + characterBytes(entry.key) + replyCost(entry.reply)
  const room = (): number => maxBytes - entryBytes - replies.bytes

  // An entry stays charged until its expiry bucket is swept, even when it was released or
  // replaced sooner: until then that bucket still holds it, and so does the heap.
  const uncharge = (entry: Entry): void => {
    entryBytes -= cost(entry)
    entry.bucket = -1
    if (entries.get(entry.key) === entry) entries.delete(entry.key)
  }

  const live = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key)
    return entry && entry.expiresAt > at ? entry : undefined
  }

  const owned = (key: string, token: string, at: number): Entry | undefined => {
    const entry = live(key, at)
    return entry && token === `m${entry.id}` ? entry : undefined
  }

  return {
    get size() {
      return entries.size
    },
    get bytes() {
      return entryBytes + replies.bytes
    },
    maxBytes,
    // Synchronous, so deliveries through this store never wait a turn of the event loop.
    claim(key, inFlightTtlMs) {
      const at = now()
      expiry.sweep(at, uncharge)
      const found = live(key, at)
      if (found?.reply) return { state: 'completed', reply: found.reply }
      if (found) return { state: 'in_flight' }
      const entry: Entry = { key, id: claims + 1, expiresAt: at + inFlightTtlMs, bucket: 0, reply: undefined }
      const needed = cost(entry)
      if (needed > room()) return { state: 'full' }
      claims += 1
      entryBytes += needed
      // An expired entry under the same key is left to its bucket, which uncharges it.
      entries.set(key, entry)
      expiry.add(entry)
      return { state: 'claimed', token: `m${entry.id}` }
    },
    complete(key, token, reply, ttlMs) {
      const at = now()
      const entry = owned(key, token, at)
      if (!entry) return
      entry.expiresAt = at + ttlMs
      expiry.move(entry)
      const stored = replies.intern(reply, room())
      const growth = replyCost(stored) - REPLY_RESERVE_BYTES
      // Only a reply larger than the reserve can overflow the budget. The delivery then stays
      // in flight for the whole ttl: its copies are answered 409, and never handled again.
      if (growth > room()) return
      entry.reply = stored
      entryBytes += growth
    },
    release(key, token) {
      if (owned(key, token, now())) entries.delete(key)
    },
  }
}

function budget(options: MemoryStoreOptions): number {
  if ('maxEntries' in options) {
    throw new RinghookConfigError(
      'createMemoryStore: maxEntries was replaced by maxBytes, a memory budget in bytes (default 40 MiB, at least 100 000 deliveries)',
    )
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_STORE_BYTES
  if (!Number.isSafeInteger(maxBytes) || maxBytes < MIN_BYTES) {
    throw new RinghookConfigError(
      `createMemoryStore: maxBytes must be a whole number of bytes >= ${MIN_BYTES}, got ${String(maxBytes)}`,
    )
  }
  return maxBytes
}

/**
 * Entries grouped by the second in which they expire, so that forgetting them costs one visit
 * each rather than a scan of the store. An entry is pushed into a bucket each time its expiry
 * moves to another second (claim, completion); the bucket it was pushed into last owns it, and
 * the others drop their reference when they are swept.
 */
class ExpiryBuckets {
  readonly #buckets = new Map<number, Entry[]>()
  /** Every bucket up to this one has been swept. */
  #swept = Number.NEGATIVE_INFINITY

  add(entry: Entry): void {
    // A clock that went back could name a bucket already swept: the next one takes the entry,
    // which only keeps it a little longer.
    const index = Math.max(Math.ceil(entry.expiresAt / BUCKET_MS), this.#swept + 1)
    entry.bucket = index
    const bucket = this.#buckets.get(index)
    if (bucket) bucket.push(entry)
    else this.#buckets.set(index, [entry])
  }

  move(entry: Entry): void {
    if (Math.ceil(entry.expiresAt / BUCKET_MS) !== entry.bucket) this.add(entry)
  }

  /** Hands every entry whose bucket has ended by `at` to `forget`, once. */
  sweep(at: number, forget: (entry: Entry) => void): void {
    const due = Math.floor(at / BUCKET_MS)
    if (due <= this.#swept) return
    // The buckets in order: every second since the last sweep, or after a long idle spell (or
    // a test clock's jump) only the buckets that exist.
    const indexes =
      due - this.#swept > this.#buckets.size
        ? [...this.#buckets.keys()].filter((index) => index <= due).sort((a, b) => a - b)
        : range(this.#swept + 1, due)
    for (const index of indexes) {
      const bucket = this.#buckets.get(index)
      if (!bucket) continue
      this.#buckets.delete(index)
      for (const entry of bucket) if (entry.bucket === index) forget(entry)
    }
    this.#swept = due
  }
}

function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let index = from; index <= to; index++) out.push(index)
  return out
}
