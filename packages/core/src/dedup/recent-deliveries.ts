import { ACK_BODY } from '../ack.js'
import { ClaimQueue } from './claim-queue.js'
import { type Entry, GONE, IN_FLIGHT, RELEASED, UNCHARGED } from './entry.js'
import { ExpiryBuckets } from './expiry-buckets.js'
import { characterBytes, ENTRY_BYTES, REPLY_RESERVE_BYTES, replyBytes } from './memory-cost.js'
import { SharedReplies } from './shared-replies.js'
import type { StoredReply } from './store.js'

/**
 * How long a completed delivery keeps its reply: the service's last retry comes at most 126 s after
 * its first attempt began (three attempts timed out at 30 s each, and the delays of 1, 5 and 30 s),
 * and a delivery completes after its first attempt began; 24 s more for clocks and slow networks.
 * After that only its fingerprint is kept, and a copy is answered {@link FORGOTTEN_REPLY}.
 */
export const REPLY_HORIZON_MS = 150_000

/**
 * Expired deliveries a claim forgets at most, beyond those the budget needs. A delivery adds one
 * entry to the buckets (when completed), so forgetting four a claim keeps well ahead. Forgetting
 * a whole bucket at once took one claim 5-10 ms at 20,000 claims a second (a test clock;
 * bench/HISTORY.md).
 */
export const FORGET_PER_CLAIM = 4

/** What the memory store does when this tier lets deliveries go. */
export interface LettingGo {
  /** A completed delivery is let go at `at` (ms): the store keeps its fingerprint if its window is still open. */
  completed(entry: Entry, at: number): void
  /** `count` replies were let go before their time to make room. */
  forgotten(count: number, at: number): void
}

/**
 * The memory store's first tier: deliveries in flight, and completed ones with their replies, each
 * charged to a budget in bytes. A completed delivery stays until its reply horizon or its window
 * ends, whichever is first; a burst beyond the budget lets the oldest go early.
 */
export class RecentDeliveries {
  readonly #entries = new Map<string, Entry>()
  readonly #claimed = new ClaimQueue()
  readonly #expiry = new ExpiryBuckets()
  readonly #replies = new SharedReplies()
  readonly #budget: number
  readonly #lettingGo: LettingGo
  #entryBytes = 0
  #claims = 0
  /** When the sweep under way runs: what a delivery let go is compared with. */
  #sweepAt = 0
  // The claim taken last, and its token: the receiver completes the claim it has just taken, so
  // `complete` finds it here instead of in the Map (one lookup and one token string fewer a delivery).
  #lastClaimed: Entry | undefined
  #lastToken = ''

  constructor(budget: number, lettingGo: LettingGo) {
    this.#budget = budget
    this.#lettingGo = lettingGo
  }

  get size(): number {
    return this.#entries.size
  }

  /** Bytes charged now: the deliveries and the shared replies. */
  get bytes(): number {
    return this.#entryBytes + this.#replies.bytes
  }

  /** Lets go of lapsed and released claims, and of a few deliveries whose bucket has ended. */
  sweep(at: number): void {
    this.#sweepAt = at
    this.#claimed.sweep(at, this.#uncharge)
    this.#expiry.sweep(at, this.#letGo, FORGET_PER_CLAIM)
  }

  /** The delivery held under `key`, its window ended or not. */
  get(key: string): Entry | undefined {
    return this.#entries.get(key)
  }

  /**
   * Claims `key` for `ttlMs`: the token, or undefined when no room can be made for it. `found` is
   * what {@link get} gave for the key, an entry whose window has ended, if any.
   */
  claim(key: string, found: Entry | undefined, at: number, ttlMs: number): string | undefined {
    const charged = ENTRY_BYTES + characterBytes(key) + REPLY_RESERVE_BYTES
    if (!this.#makeRoom(charged, at)) return undefined
    this.#claims += 1
    this.#entryBytes += charged
    const entry: Entry = {
      key,
      id: this.#claims,
      expiresAt: at + ttlMs,
      bucket: IN_FLIGHT,
      reply: undefined,
      charged,
    }
    // An expired entry under the same key is left to what owns it, which uncharges it.
    if (found) found.id = GONE
    this.#entries.set(key, entry)
    this.#claimed.add(entry)
    this.#lastClaimed = entry
    this.#lastToken = `m${entry.id}`
    return this.#lastToken
  }

  /** Keeps `reply` for the claim `token` holds on `key`, until `ttlMs` from `at` (the horizon at most). */
  complete(key: string, token: string, reply: StoredReply, at: number, ttlMs: number): void {
    const entry = this.#owned(key, token, at)
    if (!entry) return
    // Room is made before the entry joins a bucket, so that making it never lets this one go.
    // Shared replies are never let go: they may take an eighth of the deliveries' half, no more.
    let stored = this.#intern(reply)
    let growth = this.#cost(stored) - REPLY_RESERVE_BYTES
    // A reply larger than the reserve, with no room even after letting older replies go: the
    // delivery is remembered as done, and its copies get the plain acknowledgement.
    if (!this.#makeRoom(growth, at)) {
      stored = this.#intern(FORGOTTEN_REPLY)
      growth = this.#cost(stored) - REPLY_RESERVE_BYTES
    }
    entry.expiresAt = at + ttlMs
    entry.reply = stored
    entry.charged += growth
    this.#entryBytes += growth
    this.#expiry.move(entry, Math.min(entry.expiresAt, at + REPLY_HORIZON_MS))
  }

  /** Forgets the claim `token` holds on `key`, so that a retry can claim it again. */
  release(key: string, token: string, at: number): void {
    const entry = this.#owned(key, token, at)
    if (!entry) return
    this.#entries.delete(key)
    entry.id = GONE
    if (entry.bucket === IN_FLIGHT) entry.bucket = RELEASED
  }

  #owned(key: string, token: string, at: number): Entry | undefined {
    const last = this.#lastClaimed
    if (last?.bucket === IN_FLIGHT && token === this.#lastToken && last.key === key)
      return last.expiresAt > at ? last : undefined
    const entry = this.#entries.get(key)
    return entry && entry.expiresAt > at && token === `m${entry.id}` ? entry : undefined
  }

  #room(): number {
    return this.#budget - this.#entryBytes - this.#replies.bytes
  }

  #intern(reply: StoredReply): StoredReply {
    return this.#replies.intern(reply, Math.min(this.#room(), this.#budget / 8 - this.#replies.bytes))
  }

  #cost(reply: StoredReply): number {
    return this.#replies.holds(reply) ? 0 : replyBytes(reply)
  }

  /** Lets go of expired deliveries, then of the oldest replies, until `bytes` fit; whether they do. */
  #makeRoom(bytes: number, at: number): boolean {
    if (bytes <= this.#room()) return true
    this.#sweepAt = at
    this.#expiry.sweep(at, this.#letGo, Number.POSITIVE_INFINITY)
    if (bytes <= this.#room()) return true
    const before = this.#entries.size
    // One at a time: a busy second's bucket holds thousands, and only the oldest need to go.
    while (bytes > this.#room() && this.#expiry.endNext()) this.#expiry.sweep(at, this.#letGo, 1)
    if (this.#entries.size < before) this.#lettingGo.forgotten(before - this.#entries.size, at)
    return bytes <= this.#room()
  }

  // An entry stays charged until what owns it (its expiry bucket, or the queue of claims while it
  // is in flight) lets it go, even when it was released or replaced sooner: until then that still
  // holds it, and so does the heap.
  readonly #uncharge = (entry: Entry): void => {
    this.#entryBytes -= entry.charged
    entry.bucket = UNCHARGED
    if (entry.id !== GONE) this.#entries.delete(entry.key)
  }

  // A completed delivery let go before its window ends leaves its fingerprint (the store's part).
  readonly #letGo = (entry: Entry): void => {
    if (entry.id !== GONE && entry.reply) this.#lettingGo.completed(entry, this.#sweepAt)
    this.#uncharge(entry)
  }
}

/**
 * The answer to a copy of a delivery whose reply was let go (older than the horizon, or pushed out
 * by a burst): a plain acknowledgement, sent with the duplicate header. Its handlers do not run
 * again; a gesture's vibe is not sent again.
 */
export const FORGOTTEN_REPLY: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })
