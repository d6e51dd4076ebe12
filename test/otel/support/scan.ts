// What telemetry must never carry out of the process, looked for in everything that was exported.
import type { Attributes } from '@opentelemetry/api'
import type { MetricData } from '@opentelemetry/sdk-metrics'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import type { Delivery } from '../../support/events.js'

/** Every attribute key @ringhook/otel sets, as its README lists them. */
export const DOCUMENTED_ATTRIBUTES = new Set([
  'http.request.method',
  'http.response.status_code',
  'http.route',
  'error.type',
  'messaging.system',
  'messaging.operation.name',
  'messaging.operation.type',
  'messaging.destination.name',
  'messaging.message.id',
  'ringhook.event',
  'ringhook.outcome',
  'ringhook.duplicate',
  'ringhook.secret_index',
  'ringhook.dedup_key.hash',
  'ringhook.verification.reason',
  'ringhook.handler.duration',
  'ringhook.handler.outcome',
  'ringhook.deadline_reached',
  'ringhook.deadline.action',
  'ringhook.duplicate.state',
  'ringhook.store.operation',
  'ringhook.job.attempt',
  'ringhook.job.outcome',
  'ringhook.client.endpoint',
  'ringhook.client.limiter.refused',
])

const OURS = '@ringhook/otel'

const attributeStrings = (attributes: Attributes | undefined): string[] =>
  Object.entries(attributes ?? {}).flatMap(([key, value]) => [
    key,
    Array.isArray(value) ? value.join(',') : String(value),
  ])

/** Every string exported: span names, statuses, attributes, events and links; metric names and point attributes. */
export function exportedStrings(spans: readonly ReadableSpan[], metrics: readonly MetricData[]): string[] {
  const fromSpans = spans.flatMap((span) => [
    span.name,
    span.status.message ?? '',
    ...attributeStrings(span.attributes),
    ...span.events.flatMap((event) => [event.name, ...attributeStrings(event.attributes)]),
    ...span.links.flatMap((link) => attributeStrings(link.attributes)),
  ])
  const fromMetrics = metrics.flatMap((metric) => [
    metric.descriptor.name,
    metric.descriptor.description,
    metric.descriptor.unit,
    ...metric.dataPoints.flatMap((point) => attributeStrings(point.attributes)),
  ])
  return [...fromSpans, ...fromMetrics].filter((value) => value.length > 0)
}

/** The secrets, every signature and body sent, and the app, user and event ids in those bodies. */
export function sensitiveStrings(sent: readonly Delivery[], secrets: readonly string[]): string[] {
  const found = new Set(secrets)
  for (const delivery of sent) {
    found.add(delivery.body)
    for (const [name, value] of Object.entries(delivery.headers)) {
      if (name.toLowerCase().includes('signature')) found.add(value).add(value.replace(/^sha256=/, ''))
    }
    let payload: unknown
    try {
      payload = JSON.parse(delivery.body)
    } catch {
      continue
    }
    const record = (payload ?? {}) as { user_app_id?: unknown; app_id?: unknown; data?: { event_id?: unknown } }
    for (const id of [record.user_app_id, record.app_id, record.data?.event_id]) {
      if (typeof id === 'string' && id.length > 0) found.add(id)
    }
  }
  return [...found]
}

/**
 * Each sensitive string found in what was exported, anywhere inside each value; except inside a
 * value made of hex digits alone (a hash), which a short id such as a test's `ada` could match by
 * chance: that is only a leak when it is the whole value.
 */
export function leaks(
  spans: readonly ReadableSpan[],
  metrics: readonly MetricData[],
  sent: readonly Delivery[],
  secrets: readonly string[],
): string[] {
  const exported = exportedStrings(spans, metrics)
  const found = (needle: string) =>
    exported.some((value) => (HEX.test(value) ? value === needle : value.includes(needle)))
  return sensitiveStrings(sent, secrets).filter(found)
}

const HEX = /^[0-9a-f]+$/

/** Attribute keys on @ringhook/otel's spans and metric points that the README does not list. */
export function undocumentedAttributes(spans: readonly ReadableSpan[], metrics: readonly MetricData[]): string[] {
  const keys = new Set([
    ...spans.filter((span) => span.instrumentationScope.name === OURS).flatMap((span) => Object.keys(span.attributes)),
    ...metrics.flatMap((metric) => metric.dataPoints.flatMap((point) => Object.keys(point.attributes))),
  ])
  return [...keys].filter((key) => !DOCUMENTED_ATTRIBUTES.has(key))
}
