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
import type { VerifyResult } from '@ringhook/core'
import type {
  ClaimOutcome,
  DeliveryObserver,
  DeliveryOutcome,
  SettleOperation,
  WebhookRequest,
} from '@ringhook/core/adapter'
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
    this.#span.setAttribute(ATTR.verificationReason, result.reason)
    this.#metrics.verificationFailures.add(1, { [ATTR.verificationReason]: result.reason })
  }

  accepted(event: string, dedupKey: string): void {
    this.#event = event
    this.#span.setAttribute(ATTR.event, event)
    // Hashing costs a little: only for a span that is recorded.
    if (this.#span.isRecording()) this.#span.setAttribute(ATTR.dedupKeyHash, keyHash(dedupKey))
  }

  claimed(outcome: ClaimOutcome, durationMs: number): void {
    const duplicate = outcome === 'completed' || outcome === 'in_flight'
    this.#span.setAttribute(ATTR.duplicate, duplicate)
    this.#span.setAttribute(ATTR.claim, outcome)
    this.#metrics.storeDuration.record(seconds(durationMs), { [ATTR.storeOperation]: 'claim' })
    if (outcome === 'error') this.#metrics.storeErrors.add(1, { [ATTR.storeOperation]: 'claim' })
    if (duplicate)
      this.#metrics.duplicates.add(1, {
        [ATTR.event]: this.#event,
        [ATTR.duplicateState]: outcome === 'completed' ? 'replayed' : 'in_flight',
      })
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
      [ATTR.deadlineReached]: this.#deadlineReached,
    })
    // Past the deadline the span ended with the answer: the histogram alone has the late ones.
    if (this.#ended) return
    this.#span.setAttribute(ATTR.handlerDuration, seconds(durationMs))
    this.#span.setAttribute(ATTR.handlerOutcome, outcome)
  }

  deadline(action: 'acknowledge' | 'retry'): void {
    this.#deadlineReached = true
    this.#span.setAttribute(ATTR.deadlineAction, action)
    this.#metrics.deadlines.add(1, { [ATTR.event]: this.#event, [ATTR.deadlineAction]: action })
  }

  settled(operation: SettleOperation, ok: boolean, durationMs: number): void {
    this.#metrics.storeDuration.record(seconds(durationMs), { [ATTR.storeOperation]: operation })
    if (!ok) this.#metrics.storeErrors.add(1, { [ATTR.storeOperation]: operation })
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
    // A refusal comes before the event is known: it is counted by outcome alone.
    this.#metrics.deliveries.add(
      1,
      this.#event === undefined ? { [ATTR.outcome]: outcome } : { [ATTR.event]: this.#event, [ATTR.outcome]: outcome },
    )
  }
}

/** `{method} {route}` as the HTTP conventions name server spans; `HTTP` for a method they do not know. */
const serverSpanName = (method: string, route: string | undefined): string => {
  const name = method === '_OTHER' ? 'HTTP' : method
  return route ? `${name} ${route}` : name
}
