/** A deadline being watched; pass it back to {@link Deadlines.clear} once the work is done. */
export interface Deadline {
  /** When it passes, milliseconds since the epoch. */
  readonly at: number
  /** Called once it has passed. */
  readonly expire: () => void
}

const MIN_SWEEP_MS = 5
const MAX_SWEEP_MS = 1_000

/** A deadline in the list of pending ones. */
interface Node extends Deadline {
  prev: Node | undefined
  next: Node | undefined
}

/**
 * Body-read deadlines on one shared, coarse timer. A `setTimeout` per request costs Node a
 * Timeout object and timer-list upkeep on every delivery, measured at ~20 µs of server CPU per
 * request under load (bench/RESULTS.md), for a limit that needs no millisecond precision.
 * Pending deadlines are checked every quarter of the shortest timeout in use (5 ms to 1 s), so
 * a body is cut off between its timeout and 1.25 times it. The timer runs only while a deadline
 * is pending and never keeps the process alive.
 *
 * The pending deadlines are a linked list through the deadlines themselves: watching and clearing
 * one allocates nothing else, ~15 ns against ~25–50 for a Set, whose table V8 rebuilds every few
 * requests when one deadline is added and removed per request (deleted entries stay until a rehash).
 */
export class Deadlines {
  #head: Node | undefined
  #tail: Node | undefined
  #size = 0
  #timer: ReturnType<typeof setInterval> | undefined
  #sweepMs = Number.POSITIVE_INFINITY

  /** Calls `expire` once `timeoutMs` has passed, unless cleared first. */
  watch(timeoutMs: number, expire: () => void): Deadline {
    const node: Node = { at: Date.now() + timeoutMs, expire, prev: this.#tail, next: undefined }
    if (this.#tail) this.#tail.next = node
    else this.#head = node
    this.#tail = node
    this.#size += 1
    const sweepMs = Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, timeoutMs / 4))
    if (sweepMs < this.#sweepMs) this.#start(sweepMs)
    return node
  }

  /** Stops watching a deadline; clearing one already expired or cleared does nothing. */
  clear(deadline: Deadline): void {
    const node = deadline as Node
    // Unlinked already: its neighbours no longer point at it.
    if (node.prev ? node.prev.next !== node : this.#head !== node) return
    if (node.prev) node.prev.next = node.next
    else this.#head = node.next
    if (node.next) node.next.prev = node.prev
    else this.#tail = node.prev
    node.prev = undefined
    node.next = undefined
    this.#size -= 1
  }

  /** How many deadlines are pending (for tests). */
  get size(): number {
    return this.#size
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
    // Collected first: an expiry may clear or watch other deadlines.
    const due: Node[] = []
    for (let node = this.#head; node; node = node.next) if (node.at <= now) due.push(node)
    for (const node of due) {
      this.clear(node)
      node.expire()
    }
    if (this.#size === 0) {
      clearInterval(this.#timer)
      this.#timer = undefined
      this.#sweepMs = Number.POSITIVE_INFINITY
    }
  }
}

/** The deadlines of every body read in this process. */
export const bodyDeadlines = new Deadlines()
