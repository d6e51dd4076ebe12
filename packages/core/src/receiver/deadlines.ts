/** A deadline being watched; pass it back to {@link Deadlines.clear} once the work is done. */
export interface Deadline {
  /** When it passes, milliseconds since the epoch. */
  readonly at: number
  /** Called once it has passed. */
  readonly expire: () => void
}

const MIN_SWEEP_MS = 5
const MAX_SWEEP_MS = 1_000

/**
 * Body-read deadlines on one shared, coarse timer. A `setTimeout` per request costs Node a
 * Timeout object and timer-list upkeep on every delivery, measured at ~20 µs of server CPU per
 * request under load (bench/RESULTS.md), for a limit that needs no millisecond precision.
 * Pending deadlines are checked every quarter of the shortest timeout in use (5 ms to 1 s), so
 * a body is cut off between its timeout and 1.25 times it. The timer runs only while a deadline
 * is pending and never keeps the process alive.
 */
export class Deadlines {
  readonly #pending = new Set<Deadline>()
  #timer: ReturnType<typeof setInterval> | undefined
  #sweepMs = Number.POSITIVE_INFINITY

  /** Calls `expire` once `timeoutMs` has passed, unless cleared first. */
  watch(timeoutMs: number, expire: () => void): Deadline {
    const deadline = { at: Date.now() + timeoutMs, expire }
    this.#pending.add(deadline)
    const sweepMs = Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, timeoutMs / 4))
    if (sweepMs < this.#sweepMs) this.#start(sweepMs)
    return deadline
  }

  /** Stops watching a deadline; its `expire` is not called. */
  clear(deadline: Deadline): void {
    this.#pending.delete(deadline)
  }

  /** How many deadlines are pending (for tests). */
  get size(): number {
    return this.#pending.size
  }

  #start(sweepMs: number): void {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#sweepMs = sweepMs
    this.#timer = setInterval(() => this.#sweep(), sweepMs)
    const timer = this.#timer as { unref?: () => void }
    timer.unref?.()
  }

  #sweep(): void {
    const now = Date.now()
    for (const deadline of this.#pending) {
      if (deadline.at > now) continue
      this.#pending.delete(deadline)
      deadline.expire()
    }
    if (this.#pending.size === 0) {
      clearInterval(this.#timer)
      this.#timer = undefined
      this.#sweepMs = Number.POSITIVE_INFINITY
    }
  }
}

/** The deadlines of every body read in this process. */
export const bodyDeadlines = new Deadlines()
