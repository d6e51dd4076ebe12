/**
 * Bytes one fingerprint costs at most: its two 32-bit halves and its expiry (12) in the ring, and
 * 1.5 slots of 4 bytes in the table (6), which is then at most two-thirds full.
 */
export const FINGERPRINT_BYTES = 18

/** Slots in the table per fingerprint the ring holds: a linear-probing table two-thirds full. */
const SLOTS_PER_FINGERPRINT = 1.5

/** Room the ring starts with; it doubles as needed up to its capacity. */
const FIRST_LENGTH = 1024

/** A 64-bit fingerprint of a key, as two 32-bit halves. */
export interface Fingerprint {
  high: number
  low: number
}

/**
 * A seeded 64-bit hash of `key`: two murmur3 streams over its UTF-16 code units. Not a cryptographic
 * hash: keys come from signed deliveries only, and the seeds are drawn at random for each store, so
 * no one can choose keys that collide. Two keys share a fingerprint with odds of about one in 2^64
 * for each pair: at 1,000,000 fingerprints held, a new delivery is taken for a duplicate once in
 * about 10^13.
 */
export function fingerprintOf(key: string, seeds: Uint32Array, out: Fingerprint): Fingerprint {
  let h1 = seeds[0] as number
  let h2 = seeds[1] as number
  for (let i = 0; i < key.length; i++) {
    let k = Math.imul(key.charCodeAt(i), 0xcc9e2d51)
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593)
    h1 ^= k
    h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0
    h2 ^= k
    h2 = (Math.imul((h2 << 13) | (h2 >>> 19), 5) + 0xe6546b64) | 0
  }
  out.high = mix(h1 ^ key.length)
  out.low = mix(h2 ^ key.length)
  return out
}

/** murmur3's finaliser: every bit of the input reaches every bit of the output. */
function mix(value: number): number {
  let h = value
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/**
 * Fingerprints of deliveries whose replies were let go, each until its window ends, oldest first: a
 * ring of typed arrays (no object per delivery) and a linear-probing table of ring positions.
 * Deliveries share one ttl, so the oldest is the first to end, and the ring forgets from its head.
 */
export class FingerprintRing {
  /** The most it holds. */
  readonly capacity: number
  #high = new Uint32Array(0)
  #low = new Uint32Array(0)
  /** When each ends, in whole seconds of the store's clock. */
  #until = new Uint32Array(0)
  #head = 0
  #count = 0
  /** Ring position + 1 of the fingerprint in each slot; 0 is an empty slot. */
  #table = new Int32Array(0)

  constructor(capacity: number) {
    this.capacity = capacity
  }

  /** How many it holds. */
  get size(): number {
    return this.#count
  }

  /** Whether it holds its capacity: a fingerprint added now would first forget the oldest. */
  get full(): boolean {
    return this.#count >= this.capacity
  }

  /** Bytes of the arrays allocated now. */
  get bytes(): number {
    return this.#high.byteLength * 3 + this.#table.byteLength
  }

  /** Whether it holds `print` for a window that has not ended by `second`. */
  has(print: Fingerprint, second: number): boolean {
    const table = this.#table
    if (this.#count === 0) return false
    for (let slot = this.#home(print.low); table[slot] !== 0; slot = (slot + 1) % table.length) {
      const at = (table[slot] as number) - 1
      if (this.#low[at] === print.low && this.#high[at] === print.high && (this.#until[at] as number) > second)
        return true
    }
    return false
  }

  /** Adds `print` until `until` (whole seconds); when {@link full}, forgets the oldest to make room. */
  add(print: Fingerprint, until: number): void {
    if (this.full) this.forgetOldest()
    if (this.#count === this.#high.length) this.#grow()
    const at = (this.#head + this.#count) % this.#high.length
    this.#high[at] = print.high
    this.#low[at] = print.low
    this.#until[at] = until
    this.#count += 1
    this.#place(at)
  }

  /** When the oldest ends, in whole seconds; undefined when empty. */
  oldestUntil(): number | undefined {
    return this.#count === 0 ? undefined : this.#until[this.#head]
  }

  /** Forgets the oldest. */
  forgetOldest(): void {
    if (this.#count === 0) return
    this.#remove(this.#head)
    this.#head = (this.#head + 1) % this.#high.length
    this.#count -= 1
  }

  /** Forgets at most `limit` of the oldest whose window has ended by `second`. */
  sweep(second: number, limit: number): void {
    for (let left = limit; left > 0 && this.#count > 0 && (this.#until[this.#head] as number) <= second; left--)
      this.forgetOldest()
  }

  #home(low: number): number {
    return low % this.#table.length
  }

  #place(at: number): void {
    const table = this.#table
    let slot = this.#home(this.#low[at] as number)
    while (table[slot] !== 0) slot = (slot + 1) % table.length
    table[slot] = at + 1
  }

  /** Empties the slot of ring position `at`, moving back the ones after it that probed past it. */
  #remove(at: number): void {
    const table = this.#table
    let hole = this.#home(this.#low[at] as number)
    while (table[hole] !== at + 1) hole = (hole + 1) % table.length
    for (let next = (hole + 1) % table.length; table[next] !== 0; next = (next + 1) % table.length) {
      const home = this.#home(this.#low[(table[next] as number) - 1] as number)
      // It stays if its home lies after the hole, up to where it sits (cyclically).
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next
      if (stays) continue
      table[hole] = table[next] as number
      hole = next
    }
    table[hole] = 0
  }

  /** Doubles the ring (up to its capacity), laid out from position 0, and rebuilds the table. */
  #grow(): void {
    const length = Math.min(Math.max(FIRST_LENGTH, this.#high.length * 2), this.capacity)
    const copy = (from: Uint32Array): Uint32Array<ArrayBuffer> => {
      const grown = new Uint32Array(length)
      for (let i = 0; i < this.#count; i++) grown[i] = from[(this.#head + i) % from.length] as number
      return grown
    }
    this.#high = copy(this.#high)
    this.#low = copy(this.#low)
    this.#until = copy(this.#until)
    this.#head = 0
    this.#table = new Int32Array(Math.ceil(length * SLOTS_PER_FINGERPRINT))
    for (let i = 0; i < this.#count; i++) this.#place(i)
  }
}
