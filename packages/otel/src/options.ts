import { type Meter, type MeterProvider, metrics, type Tracer, type TracerProvider, trace } from '@opentelemetry/api'
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

/** Makes the instruments on first use, from the meter of the provider registered by then. */
export function lazyInstruments<T>(options: OtelOptions, create: (meter: Meter) => T): () => T {
  let instruments: T | undefined
  return () => {
    instruments ??= create((options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, version))
    return instruments
  }
}

/** Milliseconds, as ringhook measures them, to seconds, as OpenTelemetry records durations. */
export const seconds = (ms: number): number => ms / 1000
