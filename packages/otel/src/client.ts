import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api'
import { ATTR } from './attributes.js'
import { durationHistogram, lazyInstruments, type OtelOptions, seconds } from './options.js'

/** The shape of `ClientInstrumentation` from `@ringhook/client`, which this package does not depend on. */
export interface ClientTelemetry {
  /** Records one attempt of a client call. */
  request(attempt: {
    method: string
    endpoint: string
    status: number
    durationMs: number
    attempt: number
    error: string | undefined
  }): void
  /** Records a wait for the client-side rate limiter. */
  limiter(wait: { endpoint: string; durationMs: number; refused: boolean }): void
}

const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const WAIT_BUCKETS = [0, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60]

interface ClientMetrics {
  requestDuration: Histogram
  rateLimited: Counter
  limiterWait: Histogram
}

function clientMetrics(meter: Meter): ClientMetrics {
  return {
    requestDuration: durationHistogram(
      meter,
      'ringhook.client.request.duration',
      'Requests (each attempt) the ringhook API client made, by endpoint and status',
      REQUEST_BUCKETS,
    ),
    rateLimited: meter.createCounter('ringhook.client.rate_limited', {
      description: 'Answers 429 Too Many Requests from the service, by endpoint',
      unit: '{response}',
    }),
    limiterWait: durationHistogram(
      meter,
      'ringhook.client.limiter.wait',
      "Time requests waited for the client-side rate limiter's slot",
      WAIT_BUCKETS,
    ),
  }
}

/**
 * Metrics for the API client's requests: pass it as `createClient({ instrumentation })`. Spans of the
 * calls themselves come from fetch's own instrumentation (`@opentelemetry/instrumentation-undici`).
 *
 * @example
 * import { createClient } from '@ringhook/client'
 * const client = createClient({ apiKey: 'rk_...', baseUrl: 'https://api.example.com', instrumentation: otelClientInstrumentation() })
 */
export function otelClientInstrumentation(options: OtelOptions = {}): ClientTelemetry {
  const instruments = lazyInstruments(options, clientMetrics)
  return {
    request({ method, endpoint, status, durationMs, error }) {
      const { requestDuration, rateLimited } = instruments()
      const attributes: Attributes = { [ATTR.httpMethod]: method, [ATTR.clientEndpoint]: endpoint }
      if (status > 0) attributes[ATTR.httpStatus] = status
      if (error !== undefined) attributes[ATTR.errorType] = error
      requestDuration.record(seconds(durationMs), attributes)
      if (status === 429) rateLimited.add(1, { [ATTR.clientEndpoint]: endpoint })
    },
    limiter({ endpoint, durationMs, refused }) {
      instruments().limiterWait.record(seconds(durationMs), {
        [ATTR.clientEndpoint]: endpoint,
        [ATTR.limiterRefused]: refused,
      })
    },
  }
}
