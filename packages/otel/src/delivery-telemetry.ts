import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import type {
  ClaimOutcome,
  DeliveryObserver,
  DeliveryOutcome,
  SettleOperation,
  WebhookRequest,
} from '@ringhook/core/adapter'
import type { VerifyResult } from '@ringhook/core/signature'
import { ATTR } from './attributes.js'
import { headerGetter, httpMethod } from './headers.js'
import { keyHash } from './key-hash.js'
import { seconds } from './options.js'
import type { ReceiverMetrics } from './receiver-metrics.js'

/** What every delivery's telemetry shares: made once per instrumentation. */
export interface DeliverySetup {
  tracer: Tracer
  metrics: () => ReceiverMetrics
  route: string | undefined
}

/**
 * One delivery's span and measurements. The span is a SERVER span, continuing a `traceparent` the
 * request carried, unless a span of this process is already active (an HTTP server span from
 * `@opentelemetry/instrumentation-http`, say): then it is that span's INTERNAL child.
 */
export class DeliveryTelemetry implements DeliveryObserver {
  readonly #span: Span
  readonly #parent: Context
  readonly #metrics: ReceiverMetrics
  #event: string | undefined
  #ended = false
  #handlersRan = false
  #deadlineReached = false

  constructor(setup: DeliverySetup, request: WebhookRequest) {
    const active = context.active()
    const local = trace.getSpanContext(active)
    const nested = local !== undefined && !local.isRemote && trace.isSpanContextValid(local)
    this.#parent = nested ? active : propagation.extract(active, request.headers, headerGetter)
    const method = httpMethod(request.method)
    this.#span = setup.tracer.startSpan(
      nested ? 'ringhook.delivery' : serverSpanName(method, setup.route),
      {
        kind: nested ? SpanKind.INTERNAL : SpanKind.SERVER,
        attributes: setup.route
          ? { [ATTR.httpMethod]: method, [ATTR.httpRoute]: setup.route }
          : { [ATTR.httpMethod]: method },
      },
      this.#parent,
    )
    this.#metrics = setup.metrics()
  }

  verified(result: VerifyResult): void {
    if (result.ok) {
      this.#span.setAttribute(ATTR.secretIndex, result.secretIndex)
      return
    }
    const { reason } = result
    this.#span.setAttribute(ATTR.verificationReason, reason)
    this.#metrics.verificationFailures.add(reason, () => ({ [ATTR.verificationReason]: reason }))
  }

  accepted(event: string, dedupKey: string): void {
    this.#event = event
    this.#span.setAttribute(ATTR.event, event)
    // Hashing costs a little: only for a span that is recorded.
    if (this.#span.isRecording()) this.#span.setAttribute(ATTR.dedupKeyHash, keyHash(dedupKey))
  }

  claimed(outcome: ClaimOutcome, durationMs: number | undefined): void {
    const duplicate = outcome === 'completed' || outcome === 'in_flight'
    this.#span.setAttribute(ATTR.duplicate, duplicate)
    // Only a store that made the delivery wait (a promise: Redis, say) has a duration worth recording.
    if (durationMs !== undefined) this.#metrics.storeDuration.record(seconds(durationMs), CLAIM)
    if (outcome === 'error') this.#metrics.storeErrors.add('claim', () => CLAIM)
    if (duplicate) {
      const event = this.#event as string
      const state = outcome === 'completed' ? 'replayed' : 'in_flight'
      this.#metrics.duplicates.add(`${event} ${state}`, () => ({ [ATTR.event]: event, [ATTR.duplicateState]: state }))
    }
  }

  runHandlers<T>(run: () => T): T {
    this.#handlersRan = true
    return context.with(trace.setSpan(this.#parent, this.#span), run)
  }

  handled(ok: boolean, durationMs: number): void {
    const outcome = ok ? 'ok' : 'failed'
    this.#metrics.handlerDuration.record(seconds(durationMs), {
      [ATTR.event]: this.#event,
      [ATTR.handlerOutcome]: outcome,
    })
    // Past the deadline the span ended with the answer: the histogram alone has the late ones.
    if (!this.#ended) this.#span.setAttribute(ATTR.handlerDuration, seconds(durationMs))
  }

  deadline(action: 'acknowledge' | 'retry'): void {
    this.#deadlineReached = true
    this.#span.setAttribute(ATTR.deadlineAction, action)
    const event = this.#event as string
    this.#metrics.deadlines.add(`${event} ${action}`, () => ({ [ATTR.event]: event, [ATTR.deadlineAction]: action }))
  }

  settled(operation: SettleOperation, ok: boolean, durationMs: number | undefined): void {
    const attributes = operation === 'complete' ? COMPLETE : RELEASE
    if (durationMs !== undefined) this.#metrics.storeDuration.record(seconds(durationMs), attributes)
    if (!ok) this.#metrics.storeErrors.add(operation, () => attributes)
  }

  end(status: number, outcome: DeliveryOutcome): void {
    this.#ended = true
    const span = this.#span
    span.setAttribute(ATTR.httpStatus, status)
    span.setAttribute(ATTR.outcome, outcome)
    if (this.#handlersRan) span.setAttribute(ATTR.deadlineReached, this.#deadlineReached)
    // A server span is an error when the server failed (5xx); a refused stranger (4xx) is not.
    if (status >= 500) {
      span.setAttribute(ATTR.errorType, outcome)
      span.setStatus({ code: SpanStatusCode.ERROR })
    }
    span.end()
    const event = this.#event
    // A refusal comes before the event is known: it is counted by outcome alone.
    this.#metrics.deliveries.add(event === undefined ? outcome : `${event} ${outcome}`, () =>
      event === undefined ? { [ATTR.outcome]: outcome } : { [ATTR.event]: event, [ATTR.outcome]: outcome },
    )
  }
}

const CLAIM = Object.freeze({ [ATTR.storeOperation]: 'claim' })
const COMPLETE = Object.freeze({ [ATTR.storeOperation]: 'complete' })
const RELEASE = Object.freeze({ [ATTR.storeOperation]: 'release' })

/** `{method} {route}` as the HTTP conventions name server spans; `HTTP` for a method they do not know. */
const serverSpanName = (method: string, route: string | undefined): string => {
  const name = method === '_OTHER' ? 'HTTP' : method
  return route ? `${name} ${route}` : name
}
