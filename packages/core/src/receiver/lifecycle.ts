import { RinghookConfigError } from '../errors.js'
import type { Logger } from '../logger.js'

/** Options of `receiver.close()`. */
export interface CloseOptions {
  /** How long to wait for running deliveries and handlers. Default 10 s. */
  timeoutMs?: number
}

/** What `receiver.close()` found. */
export interface CloseResult {
  /** Whether every delivery and handler finished within the timeout. */
  drained: boolean
  /** Deliveries and handlers still running when it resolved (0 when drained). */
  pending: number
}

export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000

/**
 * The receiver's open/closing state and the work it has started: deliveries being handled and
 * handlers still running after their answer went out (past the deadline), so that a shutdown
 * can wait for them instead of cutting them off.
 */
export class Lifecycle {
  #closing = false
  // A count, not a set of promises: tracking is on the path of every delivery that waits.
  #running = 0
  #idleWaiters: (() => void)[] = []
  readonly #done = (): void => this.end()

  /** Once true, new deliveries are answered `shutting_down` so the service retries them. */
  get closing(): boolean {
    return this.#closing
  }

  /** Counts one more piece of work as running, until `end()`. */
  begin(): void {
    this.#running += 1
  }

  /** Counts a piece of work from `begin()` as finished; wakes `close()` once none is left. */
  end(): void {
    this.#running -= 1
    if (this.#running === 0) for (const wake of this.#idleWaiters.splice(0)) wake()
  }

  /** Counts `work` as running until it settles; passes its result through. */
  track<T>(work: Promise<T>): Promise<T> {
    this.begin()
    // Handles a rejection too, so background work that fails is never an unhandled rejection.
    work.then(this.#done, this.#done)
    return work
  }

  /** Stops accepting deliveries, then waits for running work up to the timeout. */
  async close(logger: Logger, options: CloseOptions = {}): Promise<CloseResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new RinghookConfigError(`close: timeoutMs must be a finite number >= 0, got ${String(timeoutMs)}`)
    }
    this.#closing = true
    logger.info({ running: this.#running }, 'Receiver closing: new deliveries are answered 503')
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, 'timeout')
    })
    const outcome = await Promise.race([this.#idle(), timeout])
    clearTimeout(timer)
    const pending = this.#running
    if (outcome === 'timeout')
      logger.warn({ pending, timeout_ms: timeoutMs }, 'Receiver closed with work still running')
    return { drained: outcome !== 'timeout', pending }
  }

  /** Resolves once nothing runs, including work started while waiting. */
  #idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idleWaiters.push(resolve))
  }
}
