import { sha256Hex } from '../crypto/sha256.js'
import { isKnownEventName, type UnknownEvent, type WebhookEvent } from '../schemas/events.js'
import { canonicalJson } from './canonical-json.js'

/** Derives the key under which a delivery is deduplicated. */
export type DedupKeyFn = (event: WebhookEvent | UnknownEvent) => string

/** Keys longer than this are stored as their SHA-256, so that every key costs a store a bounded size. */
export const MAX_DEDUP_KEY_LENGTH = 256

/**
 * Written before every default key. The format changed in v2 (an event's `data` became part of its
 * key): a store shared by instances of both versions names one delivery two ways, see the README's
 * "Rolling deploys".
 */
export const DEDUP_KEY_VERSION = 'v2:'

const HASHED_PREFIX = 'sha256:'

/** The fields written out in a key; everything else in the payload goes into its digest. */
const NAMED = new Set(['event', 'app_id', 'user_app_id', 'timestamp', 'gesture_type'])

/** Hex digits of the SHA-256 kept as a digest: 128 bits, far beyond any chance collision. */
const DIGEST_HEX = 32

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/**
 * The version, then a JSON array: the event's name and app, then what identifies the delivery.
 * - `notification.responded`, and an event the kit does not know whose `data.event_id` is a
 *   string: that id, which the service issues once and keeps across retries ("receivers
 *   deduplicate on event_id").
 * - every other event: its user, payload timestamp and gesture type, then a digest of the rest of
 *   the payload (`data`, `external_user_id`, any field the kit does not know): the SHA-256 of its
 *   canonical JSON (keys sorted), cut to 128 bits. Two payloads differing in any value get two keys.
 *
 * A retry carries the same payload under a new signature and header timestamp, so it gets the same
 * key. Two payloads equal in every value are one delivery: the service stamps events with their
 * time, and two events it sends apart differ in that stamp or in some other field; if it stamps in
 * whole seconds, two identical gestures of one user in one second (same type, empty `data`) are
 * indistinguishable from a retry and are answered as one.
 *
 * Written as JSON, no value can close its string early and spell another delivery's key, and every
 * key starts with the event's name: a gesture is never answered with another event's stored reply.
 *
 * @example
 * defaultDedupKey(event) // 'v2:["notification.responded","app_8kq2","evt_91x"]'
 */
export const defaultDedupKey: DedupKeyFn = (event) => {
  const record = event as Record<string, unknown>
  const data = record.data as Record<string, unknown> | undefined
  const eventId = text(data?.event_id)
  if (event.event === 'notification.responded' || (eventId !== null && !isKnownEventName(event.event)))
    return DEDUP_KEY_VERSION + jsonArray([event.event, text(record.app_id), eventId])
  return (
    DEDUP_KEY_VERSION +
    jsonArray([
      event.event,
      text(record.app_id),
      text(record.user_app_id),
      text(record.timestamp),
      text(record.gesture_type),
      restDigest(record),
    ])
  )
}

/** `{"data":{}}`'s digest: what nearly every gesture and lifecycle event carries beside its named fields. */
let emptyDigest: string | undefined

/** The digest of every field of `record` but the named ones. */
function restDigest(record: Record<string, unknown>): string {
  const others = Object.keys(record).filter((key) => !NAMED.has(key))
  // The common case, hashed once: only `data`, and it is empty.
  if (others.length === 1 && others[0] === 'data' && isEmptyObject(record.data)) {
    emptyDigest ??= digest('{"data":{}}')
    return emptyDigest
  }
  // No prototype: a field named `__proto__` is copied as a field.
  const rest: Record<string, unknown> = Object.create(null)
  for (const key of others) rest[key] = record[key]
  return digest(canonicalJson(rest))
}

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0

const digest = (json: string): string => sha256Hex(json).slice(0, DIGEST_HEX)

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
  // A hashed key starts with `sha256:`, a default key with `v2:[`: the two kinds never meet.
  return key.length > MAX_DEDUP_KEY_LENGTH ? HASHED_PREFIX + sha256Hex(key) : key
}
