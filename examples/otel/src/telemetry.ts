import type { IncomingMessage, ServerResponse } from 'node:http'
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus'
import { NodeSDK } from '@opentelemetry/sdk-node'

/** The running OpenTelemetry SDK: the Prometheus page to serve, and how to stop it. */
export interface Telemetry {
  /** Answers a Prometheus scrape with every metric, the `ringhook_*` ones included. */
  metrics(request: IncomingMessage, response: ServerResponse): void
  /** Flushes what is left (spans to the collector) and stops. */
  shutdown(): Promise<void>
}

/**
 * Starts the OpenTelemetry Node SDK, before anything is received. Metrics go to Prometheus, which
 * scrapes `GET /metrics` on the app's own port. Traces go where the standard variables say:
 * `OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318` for a collector (Jaeger, Tempo...), or
 * `OTEL_TRACES_EXPORTER=console` to print them; with neither, no spans are made.
 */
export function startTelemetry(): Telemetry {
  const prometheus = new PrometheusExporter({ preventServerStart: true })
  const tracing = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_TRACES_EXPORTER)
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'ring-app',
    metricReaders: [prometheus],
    // No exporter configured: no span processor, so the SDK makes no spans at all.
    ...(tracing ? {} : { spanProcessors: [] }),
  })
  sdk.start()
  return {
    metrics: (request, response) => prometheus.getMetricsRequestHandler(request, response),
    shutdown: () => sdk.shutdown(),
  }
}
