import type { Histogram, Meter } from '@opentelemetry/api'
import { durationHistogram } from './options.js'
import { Tally } from './tally.js'

/** Handler durations up to the service's 30 s limit, finer where most handlers finish. */
export const HANDLER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20, 25, 30]
/** Store calls: a memory store answers in microseconds, Redis in about a millisecond. */
export const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

/** The receiver's instruments; names and attributes are listed in the README. */
export interface ReceiverMetrics {
  deliveries: Tally
  verificationFailures: Tally
  duplicates: Tally
  deadlines: Tally
  storeErrors: Tally
  handlerDuration: Histogram
  storeDuration: Histogram
}

export function receiverMetrics(meter: Meter): ReceiverMetrics {
  return {
    deliveries: new Tally(meter, 'ringhook.deliveries', {
      description: 'Requests the webhook receiver answered, by event and outcome (ok, duplicate or the error code)',
      unit: '{delivery}',
    }),
    verificationFailures: new Tally(meter, 'ringhook.verification.failures', {
      description: 'Deliveries refused 401 because their signature or timestamp did not check out, by reason',
      unit: '{delivery}',
    }),
    duplicates: new Tally(meter, 'ringhook.duplicates', {
      description: 'Duplicate deliveries: replayed the stored reply, or answered 409 while the first was in progress',
      unit: '{delivery}',
    }),
    deadlines: new Tally(meter, 'ringhook.deadline.reached', {
      description: "Deliveries answered at the receiver's deadline, before their handlers finished",
      unit: '{delivery}',
    }),
    storeErrors: new Tally(meter, 'ringhook.store.errors', {
      description: 'Dedup store calls that failed',
      unit: '{error}',
    }),
    handlerDuration: durationHistogram(
      meter,
      'ringhook.handler.duration',
      'Time the handlers of a delivery took, against the service limit of 30 s',
      HANDLER_BUCKETS,
    ),
    storeDuration: durationHistogram(
      meter,
      'ringhook.store.duration',
      'Time deliveries waited for the dedup store to claim, complete or release them (stores that answer asynchronously)',
      STORE_BUCKETS,
    ),
  }
}
