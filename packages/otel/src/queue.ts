import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  type Meter,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api'
import { ATTR } from './attributes.js'
import { durationHistogram, lazyInstruments, type OtelOptions, seconds, tracerFor } from './options.js'
import { HANDLER_BUCKETS, STORE_BUCKETS } from './receiver-metrics.js'

/** The shape of `QueueInstrumentation` from `@ringhook/bullmq`, which this package does not depend on. */
export interface QueueTelemetry {
  /** Times an enqueue and gives the trace context to store with the job. */
  enqueue(job: { event: string; queue: string }): {
    readonly trace: Record<string, string> | undefined
    end(ok: boolean, durationMs: number): void
  }
  /** Continues the job's trace in a worker's run and times it. */
  process(job: {
    event: string
    queue: string
    jobId: string
    attempt: number
    trace: Readonly<Record<string, string>> | undefined
  }): { run<T>(run: () => T): T; end(ok: boolean, durationMs: number): void }
}

interface QueueMetrics {
  enqueueDuration: Histogram
  processDuration: Histogram
}

function queueMetrics(meter: Meter): QueueMetrics {
  return {
    enqueueDuration: durationHistogram(
      meter,
      'ringhook.queue.enqueue.duration',
      'Time Redis took to store a delivery as a job, while the delivery waits for its answer',
      STORE_BUCKETS,
    ),
    processDuration: durationHistogram(
      meter,
      'ringhook.queue.process.duration',
      "Time a worker's handlers took on one run of a job",
      HANDLER_BUCKETS,
    ),
  }
}

const messaging = (operation: 'send' | 'process', queue: string, event: string): Attributes => ({
  [ATTR.messagingSystem]: 'bullmq',
  [ATTR.messagingOperationName]: operation,
  [ATTR.messagingOperationType]: operation,
  [ATTR.messagingDestination]: queue,
  [ATTR.event]: event,
})

/**
 * Traces and metrics for `@ringhook/bullmq`: a PRODUCER span per enqueue, a child of the delivery
 * span, whose context is stored with the job; a CONSUMER span per run of a job, continuing that
 * trace, with the worker's handlers inside it. Pass the same one to `createEventQueue` and `createWorker`.
 *
 * @example
 * import { createEventQueue, createWorker } from '@ringhook/bullmq'
 * const instrumentation = otelQueueInstrumentation()
 * const queue = createEventQueue({ connection: { host: '127.0.0.1' }, instrumentation })
 * const worker = createWorker({ connection: { host: '127.0.0.1' }, instrumentation })
 */
export function otelQueueInstrumentation(options: OtelOptions = {}): QueueTelemetry {
  const tracer = tracerFor(options)
  const instruments = lazyInstruments(options, queueMetrics)
  return {
    enqueue({ event, queue }) {
      const span = tracer.startSpan(`send ${queue}`, {
        kind: SpanKind.PRODUCER,
        attributes: messaging('send', queue, event),
      })
      const carrier: Record<string, string> = {}
      propagation.inject(trace.setSpan(context.active(), span), carrier)
      return {
        trace: Object.keys(carrier).length > 0 ? carrier : undefined,
        end(ok, durationMs) {
          const attributes: Attributes = { [ATTR.event]: event, [ATTR.messagingDestination]: queue }
          if (!ok) attributes[ATTR.errorType] = 'enqueue_error'
          instruments().enqueueDuration.record(seconds(durationMs), attributes)
          finish(span, ok, 'enqueue_error')
        },
      }
    },
    process({ event, queue, jobId, attempt, trace: carrier }) {
      const parent: Context = carrier ? propagation.extract(context.active(), carrier) : context.active()
      const span = tracer.startSpan(
        `process ${queue}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            ...messaging('process', queue, event),
            [ATTR.messagingMessageId]: jobId,
            [ATTR.jobAttempt]: attempt,
          },
        },
        parent,
      )
      return {
        run: (run) => context.with(trace.setSpan(parent, span), run),
        end(ok, durationMs) {
          instruments().processDuration.record(seconds(durationMs), {
            [ATTR.event]: event,
            [ATTR.messagingDestination]: queue,
            [ATTR.jobOutcome]: ok ? 'ok' : 'failed',
          })
          finish(span, ok, 'handler_error')
        },
      }
    },
  }
}

function finish(span: Span, ok: boolean, errorType: string): void {
  if (!ok) {
    span.setAttribute(ATTR.errorType, errorType)
    span.setStatus({ code: SpanStatusCode.ERROR })
  }
  span.end()
}
