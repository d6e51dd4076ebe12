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

/** Expiry is tracked in buckets of this many milliseconds. */
const BUCKET_MS = 1000

/** A bucket's entries are kept in arrays of at most this many (see ExpiryBuckets). */
const BUCKET_CHUNK = 1024

/**
 * Expired deliveries a claim forgets at most, beyond those the budget needs. A delivery adds one
 * entry to the buckets (when completed), so forgetting four a claim keeps well ahead. Forgetting
 * a whole bucket at once took one claim 5-10 ms at 20,000 claims a second (a test clock;
 * bench/HISTORY.md).
 */
export const FORGET_PER_CLAIM = 4

interface Entry {
  readonly key: string
  /**
   * The claim's number; the token handed out is `m<id>`. A number costs no allocation. 0 once the
   * Map no longer holds it (released, or replaced after it lapsed), so forgetting it needs no lookup.
   */
  id: number
  /** When the store may forget it, in ms since the store was created (a small integer). */
  expiresAt: number
  /** The expiry bucket that owns it and will uncharge it, or IN_FLIGHT, RELEASED, UNCHARGED. */
  bucket: number
  reply: StoredReply | undefined
  /**
   * Bytes charged to the budget for it: its key, its reply (or the reserve for one) and the rest.
   * Kept, so that forgetting it reads neither its key's characters nor its reply again: the entries
   * forgotten are the oldest, out of the CPU's caches (~1 µs a delivery in a busy server).
   */
  charged: number
}

// What owns an entry, in its `bucket`: an expiry bucket (its index, from 1), or the queue of claims
// while it is in flight or once released (uncharged when the queue reaches it); -1 once uncharged.
const IN_FLIGHT = 0
const RELEASED = -2
const UNCHARGED = -1
/** The `id` of an entry the Map no longer holds. Claims are numbered from 1. */
const GONE = 0

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
  const claimed = new ClaimQueue()
  const expiry = new ExpiryBuckets()
  const replies = new SharedReplies()
  let entryBytes = 0
  let claims = 0
  // The claim taken last, and its token: the receiver completes the claim it has just taken, so
  // `complete` finds it here instead of in the Map (one lookup and one token string fewer a delivery).
  let lastClaimed: Entry | undefined
  let lastToken = ''

  const replyCost = (reply: StoredReply): number => (replies.holds(reply) ? 0 : replyBytes(reply))
  const room = (): number => maxBytes - entryBytes - replies.bytes

  // An entry stays charged until what owns it (its expiry bucket, or the queue of claims while it
  // is in flight) lets it go, even when it was released or replaced sooner: until then that still
  // holds it, and so does the heap.
  const uncharge = (entry: Entry): void => {
    entryBytes -= entry.charged
    entry.bucket = UNCHARGED
    if (entry.id !== GONE) entries.delete(entry.key)
  }

  const live = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key)
    return entry && entry.expiresAt > at ? entry : undefined
  }

  const owned = (key: string, token: string, at: number): Entry | undefined => {
    if (lastClaimed?.bucket === IN_FLIGHT && token === lastToken && lastClaimed.key === key)
      return lastClaimed.expiresAt > at ? lastClaimed : undefined
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
      claimed.sweep(at, uncharge)
      expiry.sweep(at, uncharge, FORGET_PER_CLAIM)
      const found = entries.get(key)
      if (found && found.expiresAt > at)
        return found.reply ? { state: 'completed', reply: found.reply } : { state: 'in_flight' }
      const charged = ENTRY_BYTES + characterBytes(key) + REPLY_RESERVE_BYTES
      // Expired deliveries not forgotten yet still count against the budget: forget them all
      // before refusing a delivery for want of room.
      if (charged > room()) expiry.sweep(at, uncharge, Number.POSITIVE_INFINITY)
      if (charged > room()) return { state: 'full' }
      claims += 1
      entryBytes += charged
      const entry: Entry = {
        key,
        id: claims,
        expiresAt: at + inFlightTtlMs,
        bucket: IN_FLIGHT,
        reply: undefined,
        charged,
      }
      // An expired entry under the same key is left to what owns it, which uncharges it.
      if (found) found.id = GONE
      entries.set(key, entry)
      claimed.add(entry)
      lastClaimed = entry
      lastToken = `m${entry.id}`
      return { state: 'claimed', token: lastToken }
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
      entry.charged += growth
      entryBytes += growth
    },
    release(key, token) {
      const entry = owned(key, token, now())
      if (!entry) return
      entries.delete(key)
      entry.id = GONE
      if (entry.bucket === IN_FLIGHT) entry.bucket = RELEASED
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
 * Claims in the order they were taken, until each is completed (an expiry bucket owns it then),
 * released or lapsed. Completion nearly always comes before the next claim, so the queue holds a
 * handful of entries; and a completed entry is owned by one bucket only, the one of its completed
 * ttl. (When claims went into buckets too, a delivery completed with a ttl shorter than its claim's
 * stayed in memory for the claim's ttl: 15 s instead of 10 in the bench's HTTP servers.)
 */
class ClaimQueue {
  // A ring buffer: taking from the front never moves or reallocates anything.
  #ring: (Entry | undefined)[] = new Array(64).fill(undefined)
  #head = 0
  #count = 0

  add(entry: Entry): void {
    if (this.#count === this.#ring.length) this.#grow()
    this.#ring[(this.#head + this.#count) % this.#ring.length] = entry
    this.#count += 1
  }

  /** Lets go of the claims at the front that are over, handing the lapsed and released ones to `forget`. */
  sweep(at: number, forget: (entry: Entry) => void): void {
    const ring = this.#ring
    while (this.#count > 0) {
      const entry = ring[this.#head] as Entry
      // Claims usually share one ttl, so the first still in flight ends the sweep.
      if (entry.bucket === IN_FLIGHT && entry.expiresAt > at) break
      if (entry.bucket === IN_FLIGHT || entry.bucket === RELEASED) forget(entry)
      ring[this.#head] = undefined
      this.#head = (this.#head + 1) % ring.length
      this.#count -= 1
    }
  }

  #grow(): void {
    const ring = this.#ring
    const grown: (Entry | undefined)[] = new Array(ring.length * 2).fill(undefined)
    for (let i = 0; i < this.#count; i++) grown[i] = ring[(this.#head + i) % ring.length]
    this.#ring = grown
    this.#head = 0
  }
}

/**
 * Entries grouped by the second in which they expire, so that forgetting them costs one visit
 * each rather than a scan of the store. An entry is pushed into a bucket each time its expiry
 * moves to another second (claim, completion); the bucket it was pushed into last owns it, and
 * the others drop their reference when they are swept. Buckets that have ended wait in `#due`,
 * oldest first, and are forgotten a few entries at a time: a busy second's bucket holds tens of
 * thousands. A bucket is a list of arrays of at most BUCKET_CHUNK entries: one array grown to a
 * second's worth copied itself once a second (0.6-0.9 ms at 20,000 claims a second, a test clock).
 */
class ExpiryBuckets {
  readonly #buckets = new Map<number, Entry[][]>()
  /** Every bucket up to this one has ended and left `#buckets` for `#due`. */
  #swept = Number.NEGATIVE_INFINITY
  /** Ended buckets' arrays not wholly forgotten yet, oldest first, with their buckets' indexes. */
  readonly #due: { index: number; entries: (Entry | undefined)[] }[] = []
  /** How far into the oldest of `#due` forgetting has got. */
  #cursor = 0

  add(entry: Entry): void {
    // A clock that went back could name a bucket already swept, or one before the store's first
    // (index 1): the next one takes the entry, which only keeps it a little longer.
    const index = Math.max(Math.ceil(entry.expiresAt / BUCKET_MS), this.#swept + 1, 1)
    entry.bucket = index
    const chunks = this.#buckets.get(index)
    const last = chunks?.[chunks.length - 1]
    if (last && last.length < BUCKET_CHUNK) last.push(entry)
    else if (chunks) chunks.push([entry])
    else this.#buckets.set(index, [[entry]])
  }

  move(entry: Entry): void {
    if (Math.ceil(entry.expiresAt / BUCKET_MS) !== entry.bucket) this.add(entry)
  }

  /** Hands at most `limit` of the entries whose bucket has ended by `at` to `forget`, once each, oldest first. */
  sweep(at: number, forget: (entry: Entry) => void, limit: number): void {
    this.#end(at)
    let left = limit
    while (left > 0) {
      const bucket = this.#due[0]
      if (!bucket) return
      const { index, entries } = bucket
      const stop = Math.min(entries.length, this.#cursor + left)
      for (let i = this.#cursor; i < stop; i++) {
        const entry = entries[i] as Entry
        // Dropped as visited, so that a forgotten entry leaves the heap before its whole bucket does.
        entries[i] = undefined
        if (entry.bucket === index) forget(entry)
      }
      left -= stop - this.#cursor
      this.#cursor = stop
      if (stop < entries.length) return
      this.#due.shift()
      this.#cursor = 0
    }
  }

  /** Moves the buckets that have ended by `at` to the back of `#due`, in order. */
  #end(at: number): void {
    const due = Math.floor(at / BUCKET_MS)
    if (due <= this.#swept) return
    // Every second since the last sweep, or after a long idle spell (or a test clock's jump) only
    // the buckets that exist.
    const indexes =
      due - this.#swept > this.#buckets.size
        ? [...this.#buckets.keys()].filter((index) => index <= due).sort((a, b) => a - b)
        : range(this.#swept + 1, due)
    for (const index of indexes) {
      const chunks = this.#buckets.get(index)
      if (!chunks) continue
      this.#buckets.delete(index)
      for (const entries of chunks) this.#due.push({ index, entries })
    }
    this.#swept = due
  }
}

function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let index = from; index <= to; index++) out.push(index)
  return out
}
