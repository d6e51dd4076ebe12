import { type Entry, IN_FLIGHT, RELEASED } from './entry.js'

/**
 * Claims in the order they were taken, until each is completed (an expiry bucket owns it then),
 * released or lapsed. Completion nearly always comes before the next claim, so the queue holds a
 * handful of entries; and a completed entry is owned by one bucket only, the one of its completed
 * ttl. (When claims went into buckets too, a delivery completed with a ttl shorter than its claim's
 * stayed in memory for the claim's ttl: 15 s instead of 10 in the bench's HTTP servers.)
 */
export class ClaimQueue {
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
