import {
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api'
import { version } from '../package.json'

/** Where telemetry goes. Both default to the providers the OpenTelemetry SDK registered globally. */
export interface OtelOptions {
  /** Default: the global tracer provider (`trace.getTracerProvider()`), a no-op until an SDK registers one. */
  tracerProvider?: TracerProvider
  /**
   * Default: the global meter provider, looked up at the first measurement, so the SDK must be
   * started before the first delivery (OpenTelemetry has no stand-in that picks up a later one).
   */
  meterProvider?: MeterProvider
}

const SCOPE = '@ringhook/otel'

/** The tracer: the global one is a stand-in that follows whichever provider is registered, even later. */
export const tracerFor = (options: OtelOptions): Tracer =>
  (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, version)

/**
 * Each meter's instruments, made once: receivers (or clients) sharing a meter provider share them,
 * so that their counts add up (two observable counters reporting one series would overwrite each other).
 */
const made = new WeakMap<Meter, Map<(meter: Meter) => unknown, unknown>>()

function instrumentsOf<T>(meter: Meter, create: (meter: Meter) => T): T {
  const byKind = made.get(meter) ?? new Map<(meter: Meter) => unknown, unknown>()
  made.set(meter, byKind)
  if (!byKind.has(create)) byKind.set(create, create(meter))
  return byKind.get(create) as T
}

/** The instruments, from the meter of the provider registered by the first measurement. */
export function lazyInstruments<T>(options: OtelOptions, create: (meter: Meter) => T): () => T {
  let instruments: T | undefined
  return () => {
    instruments ??= instrumentsOf(
      (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, version),
      create,
    )
    return instruments
  }
}

/** Milliseconds, as ringhook measures them, to seconds, as OpenTelemetry records durations. */
export const seconds = (ms: number): number => ms / 1000

/** A histogram of durations in seconds, with the bucket boundaries that suit what it times. */
export const durationHistogram = (meter: Meter, name: string, description: string, buckets: number[]): Histogram =>
  meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: buckets } })
