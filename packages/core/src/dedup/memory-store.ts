import { ACK_BODY } from '../ack.js'
import { RinghookConfigError } from '../errors.js'
import { consoleLogger, type Logger } from '../logger.js'
import { FINGERPRINT_BYTES, type Fingerprint, FingerprintRing, fingerprintOf } from './fingerprints.js'
import { characterBytes, ENTRY_BYTES, REPLY_RESERVE_BYTES, replyBytes } from './memory-cost.js'
import { SharedReplies } from './shared-replies.js'
import type { ClaimResult, DedupStore, StoredReply } from './store.js'

/** How much memory the in-process store may use, what it does when that is full, and its clock. */
export interface MemoryStoreOptions {
  /**
   * Memory budget of the store, in bytes. Half holds deliveries with their replies for their first
   * 150 s (the service's retries), half holds a 64-bit fingerprint of each for the rest of its
   * window. Default 40 MiB: about 50,000 deliveries with their replies and 1,165,000 fingerprints.
   */
  maxBytes?: number
  /**
   * When the fingerprints fill their half: `'shorten'` (default) forgets the oldest, so the replay
   * window shrinks under the load (a warning at most once a minute says by how much); `'refuse'`
   * answers new deliveries `full` (503 `store_full`, retried by the service) until the oldest ends.
   */
  whenFull?: 'shorten' | 'refuse'
  /** Where the store's warnings go (budget full, window shortened). Default: the console. */
  logger?: Logger
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number
}

/** The memory store's default budget: 40 MiB. */
export const DEFAULT_MEMORY_STORE_BYTES = 40 * 1024 * 1024

/**
 * How long a completed delivery keeps its reply: the service's last retry comes at most 126 s after
 * its first attempt began (three attempts timed out at 30 s each, and the delays of 1, 5 and 30 s),
 * and a delivery completes after its first attempt began; 24 s more for clocks and slow networks.
 * After that only its fingerprint is kept, and a copy is answered {@link FORGOTTEN_REPLY}.
 */
export const REPLY_HORIZON_MS = 150_000

/**
 * The answer to a copy of a delivery whose reply was let go (older than the horizon, or pushed out
 * by a burst): a plain acknowledgement, sent with the duplicate header. Its handlers do not run
 * again; a gesture's vibe is not sent again.
 */
export const FORGOTTEN_REPLY: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })

/** The smallest budget: room for a few deliveries with the longest keys and replies. */
const MIN_BYTES = 16 * 1024

/** Expiry is tracked in buckets of this many milliseconds. */
const BUCKET_MS = 1000

/** A bucket's entries are kept in arrays of at most this many (see ExpiryBuckets). */
const BUCKET_CHUNK = 1024

/** At most one warning of a kind in this many milliseconds; the rest are counted into the next. */
const WARN_INTERVAL_MS = 60_000

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
  /** When its window ends, in ms since the store was created (a small integer). */
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
  /** How many deliveries it holds with their replies (or in flight) now. */
  readonly size: number
  /** How many deliveries it remembers by fingerprint only now. */
  readonly fingerprints: number
  /** Bytes charged to its budget now: an upper bound of what it holds, never over `maxBytes`. */
  readonly bytes: number
  /** Its budget. */
  readonly maxBytes: number
}

/**
 * The default store: one process's memory, bounded by a budget in bytes, in two tiers. A completed
 * delivery keeps its reply for 150 s, then only a 64-bit fingerprint of its key
 * until its window ends: a copy is still never handled twice, and is answered a plain
 * acknowledgement. A burst beyond the first tier's room lets the oldest replies go early rather than
 * refusing deliveries; beyond the fingerprints' room, `whenFull` decides. Use `@ringhook/redis` when
 * more than one instance receives the same app's webhooks.
 *
 * @example
 * createReceiver({ secret, store: createMemoryStore({ maxBytes: 128 * 1024 * 1024 }) })
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxBytes = budget(options)
  const whenFull = policy(options)
  const logger = options.logger ?? consoleLogger()
  const clock = options.now ?? Date.now
  // Times relative to creation stay small integers, which V8 stores without a heap number.
  const origin = clock()
  const now = (): number => clock() - origin
  const entries = new Map<string, Entry>()
  const claimed = new ClaimQueue()
  const expiry = new ExpiryBuckets()
  const replies = new SharedReplies()
  // Half the budget for fingerprints, reserved whole so that the other half never depends on them.
  const prints = new FingerprintRing(Math.floor(maxBytes / 2 / FINGERPRINT_BYTES))
  const fullBytes = maxBytes - prints.capacity * FINGERPRINT_BYTES
  const seeds = globalThis.crypto.getRandomValues(new Uint32Array(2))
  const print: Fingerprint = { high: 0, low: 0 }
  const warnings = new Warnings(logger)
  let entryBytes = 0
  let claims = 0
  // When the sweep under way runs: what an entry let go is compared with.
  let sweepAt = 0
  // The claim taken last, and its token: the receiver completes the claim it has just taken, so
  // `complete` finds it here instead of in the Map (one lookup and one token string fewer a delivery).
  let lastClaimed: Entry | undefined
  let lastToken = ''

  const replyCost = (reply: StoredReply): number => (replies.holds(reply) ? 0 : replyBytes(reply))
  const room = (): number => fullBytes - entryBytes - replies.bytes

  // An entry stays charged until what owns it (its expiry bucket, or the queue of claims while it
  // is in flight) lets it go, even when it was released or replaced sooner: until then that still
  // holds it, and so does the heap.
  const uncharge = (entry: Entry): void => {
    entryBytes -= entry.charged
    entry.bucket = UNCHARGED
    if (entry.id !== GONE) entries.delete(entry.key)
  }

  // A completed delivery let go before its window ends leaves its fingerprint.
  const letGo = (entry: Entry): void => {
    if (entry.id !== GONE && entry.reply && entry.expiresAt > sweepAt) {
      if (prints.full) shortened(sweepAt)
      prints.add(fingerprintOf(entry.key, seeds, print), Math.ceil(entry.expiresAt / BUCKET_MS))
    }
    uncharge(entry)
  }

  const shortened = (at: number): void => {
    const oldest = prints.oldestUntil() ?? 0
    warnings.warn(
      'window_shortened',
      at,
      { window_cut_s: Math.max(0, oldest - Math.floor(at / BUCKET_MS)) },
      () =>
        `The memory store's fingerprints fill their half of maxBytes (${maxBytes} bytes): the oldest deliveries are forgotten before their dedup window ends, so a replay of one would be handled again. Raise maxBytes, or use a shared store`,
    )
  }

  /** Lets go of expired deliveries, then of the oldest replies, until `bytes` fit; whether they do. */
  const makeRoom = (bytes: number, at: number): boolean => {
    if (bytes <= room()) return true
    sweepAt = at
    expiry.sweep(at, letGo, Number.POSITIVE_INFINITY)
    if (bytes <= room()) return true
    const before = entries.size
    // One at a time: a busy second's bucket holds thousands, and only the oldest need to go.
    while (bytes > room() && expiry.endNext()) expiry.sweep(at, letGo, 1)
    if (entries.size < before)
      warnings.warn(
        'replies_forgotten',
        at,
        { forgotten: before - entries.size },
        () =>
          `The memory store's budget (maxBytes ${maxBytes} bytes) is full of recent deliveries: the replies of the oldest are forgotten early; a retry of one gets a plain acknowledgement`,
      )
    return bytes <= room()
  }

  /** Whether a new delivery must be refused: under 'refuse', when its fingerprint could find no room. */
  const refusing = (at: number): boolean => {
    if (whenFull === 'shorten' || prints.size + entries.size < prints.capacity) return false
    prints.sweep(Math.floor(at / BUCKET_MS), Number.POSITIVE_INFINITY)
    return prints.size + entries.size >= prints.capacity
  }

  return {
    get size() {
      return entries.size
    },
    get fingerprints() {
      return prints.size
    },
    get bytes() {
      return entryBytes + replies.bytes + prints.bytes
    },
    maxBytes,
    // Synchronous, so deliveries through this store never wait a turn of the event loop.
    claim(key, inFlightTtlMs) {
      const at = now()
      sweepAt = at
      claimed.sweep(at, uncharge)
      expiry.sweep(at, letGo, FORGET_PER_CLAIM)
      prints.sweep(Math.floor(at / BUCKET_MS), FORGET_PER_CLAIM)
      const found = entries.get(key)
      if (found && found.expiresAt > at)
        return found.reply ? { state: 'completed', reply: found.reply } : { state: 'in_flight' }
      if (prints.size > 0 && prints.has(fingerprintOf(key, seeds, print), Math.floor(at / BUCKET_MS)))
        return { state: 'completed', reply: FORGOTTEN_REPLY }
      const charged = ENTRY_BYTES + characterBytes(key) + REPLY_RESERVE_BYTES
      if (refusing(at) || !makeRoom(charged, at)) return { state: 'full' }
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
      // Room is made before the entry joins a bucket, so that making it never lets this one go.
      // Shared replies are never let go: they may take an eighth of the deliveries' half, no more.
      let stored = replies.intern(reply, Math.min(room(), fullBytes / 8 - replies.bytes))
      let growth = replyCost(stored) - REPLY_RESERVE_BYTES
      // A reply larger than the reserve, with no room even after letting older replies go: the
      // delivery is remembered as done, and its copies get the plain acknowledgement.
      if (!makeRoom(growth, at)) {
        stored = replies.intern(FORGOTTEN_REPLY, Math.min(room(), fullBytes / 8 - replies.bytes))
        growth = replyCost(stored) - REPLY_RESERVE_BYTES
      }
      entry.expiresAt = at + ttlMs
      entry.reply = stored
      entry.charged += growth
      entryBytes += growth
      expiry.move(entry, Math.min(entry.expiresAt, at + REPLY_HORIZON_MS))
    },
    release(key, token) {
      const entry = owned(key, token, now())
      if (!entry) return
      entries.delete(key)
      entry.id = GONE
      if (entry.bucket === IN_FLIGHT) entry.bucket = RELEASED
    },
  }

  function live(key: string, at: number): Entry | undefined {
    const entry = entries.get(key)
    return entry && entry.expiresAt > at ? entry : undefined
  }

  function owned(key: string, token: string, at: number): Entry | undefined {
    if (lastClaimed?.bucket === IN_FLIGHT && token === lastToken && lastClaimed.key === key)
      return lastClaimed.expiresAt > at ? lastClaimed : undefined
    const entry = live(key, at)
    return entry && token === `m${entry.id}` ? entry : undefined
  }
}

/** Warnings of each kind at most once a minute (the store's clock), with a count of those held back. */
class Warnings {
  readonly #logger: Logger
  readonly #last = new Map<string, { at: number; held: number }>()

  constructor(logger: Logger) {
    this.#logger = logger
  }

  warn(code: string, at: number, fields: Record<string, unknown>, message: () => string): void {
    const last = this.#last.get(code)
    if (last && at - last.at < WARN_INTERVAL_MS) {
      last.held += 1
      return
    }
    this.#logger.warn({ code, ...fields, ...(last?.held ? { since_last_warning: last.held } : {}) }, message())
    this.#last.set(code, { at, held: 0 })
  }
}

function policy(options: MemoryStoreOptions): 'shorten' | 'refuse' {
  const value = options.whenFull ?? 'shorten'
  if (value !== 'shorten' && value !== 'refuse')
    throw new RinghookConfigError(`createMemoryStore: whenFull must be 'shorten' or 'refuse', got ${String(value)}`)
  return value
}

function budget(options: MemoryStoreOptions): number {
  if ('maxEntries' in options) {
    throw new RinghookConfigError(
      'createMemoryStore: maxEntries was replaced by maxBytes, a memory budget in bytes (default 40 MiB: over 1,000,000 deliveries remembered)',
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

  /** Puts `entry` in the bucket of `until` (ms), which lets it go once ended. */
  add(entry: Entry, until: number): void {
    // A clock that went back could name a bucket already swept, or one before the store's first
    // (index 1): the next one takes the entry, which only keeps it a little longer.
    const index = Math.max(Math.ceil(until / BUCKET_MS), this.#swept + 1, 1)
    entry.bucket = index
    const chunks = this.#buckets.get(index)
    const last = chunks?.[chunks.length - 1]
    if (last && last.length < BUCKET_CHUNK) last.push(entry)
    else if (chunks) chunks.push([entry])
    else this.#buckets.set(index, [[entry]])
  }

  move(entry: Entry, until: number): void {
    if (Math.ceil(until / BUCKET_MS) !== entry.bucket) this.add(entry, until)
  }

  /**
   * Ends the bucket due next before its time, when no ended one is left to sweep: how a burst makes
   * room, oldest first. Whether there was one.
   */
  endNext(): boolean {
    if (this.#due.length > 0) return true
    let next = Number.POSITIVE_INFINITY
    for (const index of this.#buckets.keys()) next = Math.min(next, index)
    if (next === Number.POSITIVE_INFINITY) return false
    this.#end(next * BUCKET_MS)
    return true
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
