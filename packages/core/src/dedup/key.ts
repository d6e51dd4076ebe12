import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'

/** Derives the key under which a delivery is deduplicated. */
export type DedupKeyFn = (event: WebhookEvent | UnknownEvent) => string

const field = (value: unknown): string => (typeof value === 'string' ? value : '')

/**
 * `data.event_id` when the event has one (notification responses); otherwise the fields that
 * stay the same when the service retries a delivery: app, user, event, its timestamp and
 * gesture type. A retry may carry a new signature and header timestamp, so neither is used.
 */
export const defaultDedupKey: DedupKeyFn = (event) => {
  const record = event as Record<string, unknown>
  const data = record.data as Record<string, unknown> | undefined
  const app = field(record.app_id)
  const eventId = field(data?.event_id)
  if (eventId) return `${app}:event:${eventId}`
  return [
    app,
    'delivery',
    field(record.user_app_id),
    event.event,
    field(record.timestamp),
    field(record.gesture_type),
  ].join(':')
}
