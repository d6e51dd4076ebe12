import type { TimeSource } from './clock.js'

export type Take = { ok: true } | { ok: false; retryAfterMs: number }

/**
 * A sliding-window limit: at most `limit` events per `windowMs` for each key, counted from the
 * clock, so a fake clock can move a test past the window.
 */
export class SlidingWindow {
  readonly #hits = new Map<string, number[]>()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: TimeSource,
  ) {}

  /** Counts one event for `key` if the limit allows it. */
  take(key: string): Take {
    const now = this.now()
    const hits = (this.#hits.get(key) ?? []).filter((at) => at > now - this.windowMs)
    if (hits.length >= this.limit) {
      this.#hits.set(key, hits)
      return { ok: false, retryAfterMs: (hits[0] as number) + this.windowMs - now }
    }
    hits.push(now)
    this.#hits.set(key, hits)
    return { ok: true }
  }

  clear(): void {
    this.#hits.clear()
  }
}
