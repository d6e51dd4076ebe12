import { RinghookConfigError } from '../errors.js'
import { consoleLogger, type Logger } from '../logger.js'
import { BUCKET_MS } from './expiry-buckets.js'
import { FINGERPRINT_BYTES, type Fingerprint, FingerprintRing, fingerprintOf } from './fingerprints.js'
import { FORGET_PER_CLAIM, FORGOTTEN_REPLY, RecentDeliveries } from './recent-deliveries.js'
import type { ClaimResult, DedupStore, StoredReply } from './store.js'

export { FORGET_PER_CLAIM, FORGOTTEN_REPLY, REPLY_HORIZON_MS } from './recent-deliveries.js'

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

/** The smallest budget: room for a few deliveries with the longest keys and replies. */
const MIN_BYTES = 16 * 1024

/** At most one warning of a kind in this many milliseconds; the rest are counted into the next. */
const WARN_INTERVAL_MS = 60_000

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
  const warnings = new Warnings(options.logger ?? consoleLogger())
  const clock = options.now ?? Date.now
  // Times relative to creation stay small integers, which V8 stores without a heap number.
  const origin = clock()
  const now = (): number => clock() - origin
  // Half the budget for fingerprints, reserved whole so that the other half never depends on them.
  const prints = new FingerprintRing(Math.floor(maxBytes / 2 / FINGERPRINT_BYTES))
  const seeds = globalThis.crypto.getRandomValues(new Uint32Array(2))
  const print: Fingerprint = { high: 0, low: 0 }
  const fingerprint = (key: string): Fingerprint => fingerprintOf(key, seeds, print)
  const recent = new RecentDeliveries(maxBytes - prints.capacity * FINGERPRINT_BYTES, {
    completed(entry, at) {
      if (entry.expiresAt <= at) return
      if (prints.full) warnings.shortened(maxBytes, at, prints.oldestUntil() ?? 0)
      prints.add(fingerprint(entry.key), Math.ceil(entry.expiresAt / BUCKET_MS))
    },
    forgotten: (count, at) => warnings.forgotten(maxBytes, at, count),
  })

  /** Whether a new delivery must be refused: under 'refuse', when its fingerprint could find no room. */
  const refusing = (at: number): boolean => {
    if (whenFull === 'shorten' || prints.size + recent.size < prints.capacity) return false
    prints.sweep(Math.floor(at / BUCKET_MS), Number.POSITIVE_INFINITY)
    return prints.size + recent.size >= prints.capacity
  }

  return {
    get size() {
      return recent.size
    },
    get fingerprints() {
      return prints.size
    },
    get bytes() {
      return recent.bytes + prints.bytes
    },
    maxBytes,
    // Synchronous, so deliveries through this store never wait a turn of the event loop.
    claim(key, inFlightTtlMs) {
      const at = now()
      recent.sweep(at)
      prints.sweep(Math.floor(at / BUCKET_MS), FORGET_PER_CLAIM)
      const found = recent.get(key)
      if (found && found.expiresAt > at)
        return found.reply ? { state: 'completed', reply: found.reply } : { state: 'in_flight' }
      if (prints.size > 0 && prints.has(fingerprint(key), Math.floor(at / BUCKET_MS)))
        return { state: 'completed', reply: FORGOTTEN_REPLY }
      const token = refusing(at) ? undefined : recent.claim(key, found, at, inFlightTtlMs)
      return token === undefined ? { state: 'full' } : { state: 'claimed', token }
    },
    complete(key, token, reply, ttlMs) {
      recent.complete(key, token, reply, now(), ttlMs)
    },
    release(key, token) {
      recent.release(key, token, now())
    },
  }
}

/** The store's warnings, each kind at most once a minute (the store's clock), with a count of those held back. */
class Warnings {
  readonly #logger: Logger
  readonly #last = new Map<string, { at: number; held: number }>()

  constructor(logger: Logger) {
    this.#logger = logger
  }

  /** The fingerprints are full: the oldest, forgotten now, had their window until `oldestUntil` (s). */
  shortened(maxBytes: number, at: number, oldestUntil: number): void {
    this.#warn(
      'window_shortened',
      at,
      { window_cut_s: Math.max(0, oldestUntil - Math.floor(at / BUCKET_MS)) },
      () =>
        `The memory store's fingerprints fill their half of maxBytes (${maxBytes} bytes): the oldest deliveries are forgotten before their dedup window ends, so a replay of one would be handled again. Raise maxBytes, or use a shared store`,
    )
  }

  /** `count` replies were let go before their horizon to make room. */
  forgotten(maxBytes: number, at: number, count: number): void {
    this.#warn(
      'replies_forgotten',
      at,
      { forgotten: count },
      () =>
        `The memory store's budget (maxBytes ${maxBytes} bytes) is full of recent deliveries: the replies of the oldest are forgotten early; a retry of one gets a plain acknowledgement`,
    )
  }

  #warn(code: string, at: number, fields: Record<string, unknown>, message: () => string): void {
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
