import type { Logger } from '../logger.js'

/** How many lines of one kind the receiver writes, at most, in each interval. */
export interface LogLimit {
  /** Lines written per interval before the rest are only counted. Default 10. */
  lines: number
  /** The interval, ms. Default 60 000. */
  intervalMs: number
}

export const DEFAULT_LOG_LIMIT: LogLimit = Object.freeze({ lines: 10, intervalMs: 60_000 })

/**
 * Writes lines about refused requests, which a stranger can send at will (forged, malformed,
 * oversized), at most `lines` times per interval: a flood of them would otherwise fill the disk,
 * one line per request. What is held back is counted by code and reported in one summary line, at the end of
 * the interval, or at the next line written.
 */
export class LimitedLog {
  readonly #logger: Logger
  readonly #limit: LogLimit
  readonly #now: () => number
  #windowStart = Number.NEGATIVE_INFINITY
  #written = 0
  #suppressed = new Map<string, number>()
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(logger: Logger, limit: LogLimit, now: () => number) {
    this.#logger = logger
    this.#limit = limit
    this.#now = now
  }

  /** Writes a line, unless this interval's lines are spent; then only its code is counted. */
  write(level: 'warn' | 'error', code: string, fields: Record<string, unknown>, message: string): void {
    const at = this.#now()
    if (at - this.#windowStart >= this.#limit.intervalMs) {
      this.flush()
      this.#windowStart = at
      this.#written = 0
    }
    if (this.#written < this.#limit.lines) {
      this.#written += 1
      this.#logger[level](fields, message)
      return
    }
    this.#suppressed.set(code, (this.#suppressed.get(code) ?? 0) + 1)
    this.#timer ??= unref(setTimeout(() => this.flush(), this.#limit.intervalMs))
  }

  /** Writes the summary of what was held back, if anything was. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#suppressed.size === 0) return
    const suppressed = Object.fromEntries(this.#suppressed)
    let total = 0
    for (const count of this.#suppressed.values()) total += count
    this.#suppressed = new Map()
    this.#logger.warn(
      { suppressed, total },
      `Held back ${total} more log lines about refused requests (at most ${this.#limit.lines} per ${this.#limit.intervalMs / 1000} s, option \`logLimit\`)`,
    )
  }
}

/** Keeps a pending summary from holding a Node process open; other runtimes have no unref. */
function unref<T>(timer: T): T {
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}
