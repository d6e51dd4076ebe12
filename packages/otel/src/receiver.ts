import type { Instrumentation } from '@ringhook/core/adapter'
import { DeliveryTelemetry } from './delivery-telemetry.js'
import { lazyInstruments, type OtelOptions, tracerFor } from './options.js'
import { receiverMetrics } from './receiver-metrics.js'

export interface OtelInstrumentationOptions extends OtelOptions {
  /**
   * The route the receiver is mounted on, e.g. `'/webhooks'`: sets `http.route` and names the span
   * `POST /webhooks`, as OpenTelemetry's HTTP conventions do. Without it the span is named `POST`.
   */
  route?: string
}

/**
 * Traces and metrics for every delivery, through `@opentelemetry/api`: a span per request and the
 * `ringhook.*` metrics (see the README). Uses the globally registered providers unless given
 * others; with no SDK registered, OpenTelemetry's no-op implementations do nothing.
 *
 * @example
 * const traced = createReceiver({ secret, instrumentation: otelInstrumentation({ route: '/webhooks' }) })
 */
export function otelInstrumentation(options: OtelInstrumentationOptions = {}): Instrumentation {
  const setup = {
    tracer: tracerFor(options),
    metrics: lazyInstruments(options, receiverMetrics),
    route: options.route,
  }
  return { delivery: (request) => new DeliveryTelemetry(setup, request) }
}
