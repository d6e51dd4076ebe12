import { isThenable } from '../awaitable.js'
import { describe } from '../errors.js'
import type { DeliveryOutcome } from '../receiver/instrumentation.js'
import type { AnsweredDelivery, Outlet } from '../receiver/outlet.js'
import { buildRecord, type Finished } from './build.js'
import { type CaptureOptions, type ResolvedCaptureOptions, resolveCaptureOptions } from './options.js'
import type { CapturedDelivery, CaptureOutcome } from './record.js'

/** What a capture did so far, counted in deliveries. */
export interface CaptureStats {
  /** Answered deliveries that were chosen (by outcome and sampling) and queued for the sink. */
  captured: number
  /** Records the sink stored. */
  written: number
  /** Deliveries left out by `outcomes` or `sampleRate`. */
  skipped: number
  /** Chosen deliveries not recorded because the records waiting would pass `maxBytes`, or the capture was closed. */
  dropped: number
  /** Records lost with a batch the sink threw on or rejected. */
  failed: number
  /** Records lost with a batch the sink did not finish within `timeoutMs`. */
  stalled: number
  /** Records waiting for the sink, or being written. */
  pending: number
}

/**
 * Records answered deliveries to a sink: pass it to `createReceiver({ capture })`. Recording happens
 * after the answer is decided, off the delivery's path; a slow or failing sink never changes an answer.
 */
export interface Capture {
  /** What it did so far. */
  stats(): CaptureStats
  /**
   * Resolves once every record queued so far was written (or given up on), or once `timeoutMs` has
   * passed, whichever comes first.
   */
  flush(timeoutMs?: number): Promise<void>
  /** Flushes, then closes the sink; deliveries answered after this are not recorded. */
  close(): Promise<void>
}

const FAILED_OUTCOMES: ReadonlySet<DeliveryOutcome> = new Set(['handler_error', 'internal_error', 'deadline_exceeded'])

/** What a receiver's outcome is, in the capture's words. */
export function captureOutcome(outcome: DeliveryOutcome): CaptureOutcome {
  if (outcome === 'ok') return 'accepted'
  if (outcome === 'duplicate') return 'duplicate'
  return FAILED_OUTCOMES.has(outcome) ? 'failed' : 'refused'
}

// What a record costs besides its body and answer: headers and fields, about.
const RECORD_OVERHEAD = 512

/**
 * Creates a capture: deliveries chosen by outcome and sampling are recorded to `sink`, with their
 * bytes, headers (signature redacted), arrival time, answer and outcome, personal fields hashed.
 *
 * @example
 * import { createCapture } from '@ringhook/core/capture'
 * import { fileSink } from '@ringhook/capture'
 * const capture = createCapture({ sink: fileSink({ path: 'captures/deliveries.jsonl' }), outcomes: ['failed', 'refused'] })
 * const receiver = createReceiver({ secret, capture })
 */
export function createCapture(options: CaptureOptions): Capture {
  return new CaptureQueue(resolveCaptureOptions(options))
}

class CaptureQueue implements Capture, Outlet {
  readonly #options: ResolvedCaptureOptions
  readonly #queue: Finished[] = []
  #queuedBytes = 0
  #writing = false
  /** Records in the batch being written. */
  #inFlight = 0
  /** The timer of the next drain, when one is set. */
  #timer: ReturnType<typeof setTimeout> | undefined
  /** Whether that timer fires on the next turn (a batch is full, or someone waits for the queue). */
  #soon = false
  #closed = false
  #warned = false
  #idle: (() => void)[] = []
  readonly #stats = { captured: 0, written: 0, skipped: 0, dropped: 0, failed: 0, stalled: 0 }

  constructor(options: ResolvedCaptureOptions) {
    this.#options = options
  }

  /**
   * The receiver's outlet (not part of the public type): called once a delivery is answered, a few
   * checks and a push, nothing more.
   */
  answered(delivery: AnsweredDelivery, { signatureHeader }: { signatureHeader: string }): void {
    const options = this.#options
    const outcome = captureOutcome(delivery.outcome)
    if (!options.outcomes.has(outcome) || (options.sampleRate < 1 && Math.random() >= options.sampleRate)) {
      this.#stats.skipped++
      return
    }
    const size = delivery.bytes.length + delivery.response.body.length + RECORD_OVERHEAD
    if (this.#closed || this.#queuedBytes + size > options.maxBytes) {
      this.#stats.dropped++
      return
    }
    this.#stats.captured++
    this.#queuedBytes += size
    this.#queue.push({ delivery, outcome, signatureHeader, size })
    this.#schedule()
  }

  stats(): CaptureStats {
    return { ...this.#stats, pending: this.#queue.length + this.#inFlight }
  }

  flush(timeoutMs?: number): Promise<void> {
    if (!this.#writing && this.#queue.length === 0) return Promise.resolve()
    return new Promise((resolve) => {
      this.#idle.push(resolve)
      this.#schedule()
      if (timeoutMs !== undefined) (setTimeout(resolve, timeoutMs) as { unref?: () => void }).unref?.()
    })
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.flush()
    try {
      await this.#options.sink.close?.()
    } catch (error) {
      this.#options.logger.warn({ err: describe(error) }, 'The capture sink failed to close')
    }
  }

  /**
   * Drains on a later turn of the event loop, so the answer goes out first: at once when a batch is
   * full or `flush()` waits, otherwise `delayMs` later (after a write, `delayMs` after it ended), so
   * that under load the sink is handed few, full batches.
   */
  #schedule(): void {
    if (this.#writing) return // the write's end schedules the next
    const soon = this.#queue.length >= this.#options.batchSize || this.#idle.length > 0
    if (this.#timer !== undefined) {
      if (this.#soon || !soon) return
      clearTimeout(this.#timer)
    }
    this.#soon = soon
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined
        this.#drain()
      },
      soon ? 0 : this.#options.delayMs,
    )
  }

  /** Hands the sink the next batch; when it is done, the next. One batch at a time. */
  #drain(): void {
    if (this.#writing) return
    if (this.#queue.length === 0) {
      this.#settleIdle()
      return
    }
    const batch = this.#queue.splice(0, this.#options.batchSize)
    const bytes = batch.reduce((sum, finished) => sum + finished.size, 0)
    const records: CapturedDelivery[] = []
    for (const finished of batch) {
      try {
        records.push(buildRecord(finished, this.#options))
      } catch (error) {
        this.#lost('failed', 1, error)
      }
    }
    this.#writing = true
    this.#inFlight = batch.length
    let settled = false
    const done = (outcome: 'written' | 'failed' | 'stalled', error?: unknown) => {
      if (settled) return // a write that settles after its stall was counted: the next batch is on
      settled = true
      this.#writing = false
      this.#inFlight = 0
      this.#queuedBytes -= bytes
      if (outcome === 'written') this.#stats.written += records.length
      else this.#lost(outcome, records.length, error)
      if (this.#queue.length === 0) this.#settleIdle()
      else this.#schedule()
    }
    let written: unknown
    try {
      written = records.length > 0 ? this.#options.sink.write(records) : undefined
    } catch (error) {
      done('failed', error)
      return
    }
    if (!isThenable(written)) {
      done('written')
      return
    }
    const timer = setTimeout(() => done('stalled'), this.#options.timeoutMs)
    ;(timer as { unref?: () => void }).unref?.()
    Promise.resolve(written).then(
      () => {
        clearTimeout(timer)
        done('written')
      },
      (error: unknown) => {
        clearTimeout(timer)
        done('failed', error)
      },
    )
  }

  #lost(kind: 'failed' | 'stalled', count: number, error?: unknown): void {
    this.#stats[kind] += count
    if (this.#warned) return
    this.#warned = true
    const why =
      kind === 'stalled' ? `did not finish within ${this.#options.timeoutMs} ms` : `failed (${describe(error)})`
    this.#options.logger.warn(
      { lost: count, reason: kind },
      `The capture sink ${why}: those records are lost, deliveries go on. Later losses are only counted: capture.stats()`,
    )
  }

  #settleIdle(): void {
    const waiting = this.#idle
    this.#idle = []
    for (const resolve of waiting) resolve()
  }
}
