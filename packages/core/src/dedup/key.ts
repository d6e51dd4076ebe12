import { sha256Hex } from '../crypto/sha256.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'

/** Derives the key under which a delivery is deduplicated. */
export type DedupKeyFn = (event: WebhookEvent | UnknownEvent) => string

/** Keys longer than this are stored as their SHA-256, so that every key costs a store a bounded size. */
export const MAX_DEDUP_KEY_LENGTH = 256

const HASHED_PREFIX = 'sha256:'

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/**
 * The event's name and app, then what identifies the delivery within them:
 * - `notification.responded`: `data.event_id`, the id the service issued for the notification,
 *   which it promises to keep across the webhook's retries ("receivers deduplicate on event_id").
 * - every other event: the fields that stay the same when the service retries it (user, the
 *   event's own timestamp, gesture type). A retry carries a new signature and header timestamp,
 *   so neither is used; nor is `data`, which the spec leaves empty for these events.
 *
 * The parts are written as a JSON array, so no choice of field values can make two different
 * deliveries spell the same key (a value cannot close its string early), and a key always
 * starts with the event's name: a gesture can never be answered with another event's stored
 * reply, nor one user's gesture with another's.
 *
 * @example
 * defaultDedupKey(event) // '["notification.responded","app_8kq2","evt_91x"]'
 */
export const defaultDedupKey: DedupKeyFn = (event) => {
  const record = event as Record<string, unknown>
  if (event.event === 'notification.responded') {
    const data = record.data as Record<string, unknown> | undefined
    return jsonArray([event.event, text(record.app_id), text(data?.event_id)])
  }
  return jsonArray([
    event.event,
    text(record.app_id),
    text(record.user_app_id),
    text(record.timestamp),
    text(record.gesture_type),
  ])
}

// What JSON.stringify escapes in a string: quote, backslash, control characters, and (written as
// `\udXXX` when lone) surrogates. A string holding none of them is written as itself.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * `JSON.stringify(parts)`, character for character. Ids are plain text, so the quotes and commas
 * are joined directly, which costs a third of JSON.stringify's time (it is on every delivery's
 * path); anything JSON would escape, or a missing part (`null`), goes through JSON.stringify.
 */
function jsonArray(parts: readonly (string | null)[]): string {
  for (const part of parts) if (part === null || ESCAPED.test(part)) return JSON.stringify(parts)
  return `["${parts.join('","')}"]`
}

/**
 * The key the receiver claims in its store for `event`: `keyFn`'s key, or its SHA-256 when it is
 * longer than {@link MAX_DEDUP_KEY_LENGTH}. The client's dedup link calls this too, so both
 * always name a delivery the same way.
 *
 * @example
 * const key = dedupKeyFor(event) // what the receiver claims for this delivery
 */
export function dedupKeyFor(event: WebhookEvent | UnknownEvent, keyFn: DedupKeyFn = defaultDedupKey): string {
  const key = keyFn(event)
  // A hashed key starts with `sha256:`, a default key with `[`: the two kinds never meet.
  return key.length > MAX_DEDUP_KEY_LENGTH ? HASHED_PREFIX + sha256Hex(key) : key
}
