/** The simulator's time: a function giving milliseconds since the epoch. */
export type TimeSource = () => number
/** @deprecated Use {@link TimeSource} (`Clock` is `@ringhook/client`'s clock, with `sleep`); removed in 0.3.0. */
export type Clock = TimeSource

/** A clock a test moves by hand, for rate-limit windows and timestamps. */
export interface FakeClock {
  /** The time now: pass this as the simulator's `clock`. */
  now: TimeSource
  /** Moves the clock forward. */
  advance(ms: number): void
  /** Sets the clock to a time (milliseconds since the epoch, or a date). */
  set(ms: number | Date): void
}

/**
 * A clock that only moves when told to. Timers (retries, acknowledgement and await timeouts)
 * do not follow it: they run on real time multiplied by `timeScale`.
 *
 * @example
 * const clock = createFakeClock()
 * const sim = await createSimulator({ clock: clock.now })
 * clock.advance(60_000) // the rate-limit window has passed
 */
export function createFakeClock(start: number | Date = Date.parse('2026-01-01T00:00:00.000Z')): FakeClock {
  let current = typeof start === 'number' ? start : start.getTime()
  return {
    now: () => current,
    advance: (ms) => {
      current += ms
    },
    set: (ms) => {
      current = typeof ms === 'number' ? ms : ms.getTime()
    },
  }
}

/** The longest wait one Node timer holds. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Scaled, tracked timers: every wait is multiplied by `scale`, and `clear()` cancels them all on close. */
export class Timers {
  readonly #pending = new Set<ReturnType<typeof setTimeout>>()

  constructor(readonly scale: number) {}

  /** The real wait for a duration of the service's time. */
  scaled(ms: number): number {
    return Math.max(0, Math.round(ms * this.scale))
  }

  /**
   * Runs `fn` after `ms` of service time; returns a cancel function. A wait longer than a Node timer
   * holds (2^31-1 ms; a longer one fires at once) is waited in parts, the timer re-armed for the rest.
   */
  after(ms: number, fn: () => void): () => void {
    let timer: ReturnType<typeof setTimeout>
    const arm = (wait: number) => {
      const part = Math.min(wait, MAX_TIMER_MS)
      timer = setTimeout(() => {
        this.#pending.delete(timer)
        if (wait > part) arm(wait - part)
        else fn()
      }, part)
      this.#pending.add(timer)
    }
    arm(this.scaled(ms))
    return () => {
      clearTimeout(timer)
      this.#pending.delete(timer)
    }
  }

  clear(): void {
    for (const timer of this.#pending) clearTimeout(timer)
    this.#pending.clear()
  }
}
