import type { Awaitable } from '../awaitable.js'
import type { CapturedDelivery } from './record.js'

/**
 * Where captured deliveries go: a file, a Redis stream, a database table, your own. The capture
 * hands it records in batches, one batch at a time, after the deliveries were answered.
 *
 * `write` may return a promise; the next batch waits for it (up to the capture's `timeoutMs`). A
 * sink that throws, rejects or does not settle in time loses that batch: the capture counts it
 * (`stats()`), warns (again at most once a minute while it goes on), and goes on. Nothing a sink
 * does reaches a delivery's answer.
 *
 * @example
 * const sink: CaptureSink = { write: (records) => { for (const record of records) console.log(JSON.stringify(record)) } }
 */
export interface CaptureSink {
  /** Stores a batch of records, in the order the deliveries were answered. */
  write(records: readonly CapturedDelivery[]): Awaitable<void>
  /** Releases what the sink holds (a file handle); called once by `capture.close()`. */
  close?(): Awaitable<void>
}
