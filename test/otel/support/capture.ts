// An OpenTelemetry SDK in memory, set up as the Node SDK sets itself up (context that follows async
// continuations, W3C trace context), so tests can read back every span and metric point exported.
import { type Attributes, context, propagation } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'

/** The globals the Node SDK registers. OpenTelemetry keeps one of each per process. */
export function registerGlobals(): void {
  context.disable()
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.disable()
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
}

export interface Capture {
  tracerProvider: BasicTracerProvider
  meterProvider: MeterProvider
  /** Every span ended so far (since `reset`). */
  spans(): ReadableSpan[]
  /** The metric points recorded since the last call (delta temporality). */
  metrics(): Promise<MetricData[]>
  reset(): void
  shutdown(): Promise<void>
}

export function capture(): Capture {
  registerGlobals()
  const spanExporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] })
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA)
  // Read when a test asks (forceFlush), never on its own.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 })
  const meterProvider = new MeterProvider({ readers: [reader] })
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async metrics() {
      await reader.forceFlush()
      const exported = metricExporter.getMetrics().flatMap((resource) => resource.scopeMetrics)
      metricExporter.reset()
      return exported.flatMap((scope) => scope.metrics)
    },
    reset: () => spanExporter.reset(),
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()])
    },
  }
}

/** One metric point: its attributes, and its value (a counter's sum, a histogram's count). */
export interface Point {
  attributes: Attributes
  value: number
  /** A histogram's sum. */
  sum?: number
}

/** The points of the metric `name`, with their attributes. */
export function points(metrics: readonly MetricData[], name: string): Point[] {
  return metrics
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) =>
      metric.dataPoints.map((point) => {
        if (metric.dataPointType === DataPointType.HISTOGRAM) {
          const value = point.value as { count: number; sum?: number }
          return { attributes: point.attributes, value: value.count, sum: value.sum ?? 0 }
        }
        return { attributes: point.attributes, value: point.value as number }
      }),
    )
    .filter((point) => point.value !== 0)
}

/** Every metric as `name {attributes} value`, sorted: one line each, easy to compare whole. */
export function summary(metrics: readonly MetricData[]): string[] {
  const names = [...new Set(metrics.map((metric) => metric.descriptor.name))]
  return names
    .flatMap((name) =>
      points(metrics, name).map((point) => {
        const attributes = Object.entries(point.attributes)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, value]) => `${key}=${String(value)}`)
          .join(',')
        return `${name} {${attributes}} ${point.value}`
      }),
    )
    .sort()
}
