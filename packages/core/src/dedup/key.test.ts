import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { WebhookEvent } from '../schemas/events.js'
import { dedupKeyFor, defaultDedupKey, MAX_DEDUP_KEY_LENGTH } from './key.js'

const gesture = (fields: Record<string, unknown> = {}) =>
  ({
    event: 'gesture',
    gesture_type: 'tap',
    app_id: 'app_a',
    user_app_id: 'user_1',
    timestamp: '2026-11-22T10:00:00.000Z',
    data: {},
    ...fields,
  }) as unknown as WebhookEvent

const responded = (eventId: string, fields: Record<string, unknown> = {}) =>
  ({
    event: 'notification.responded',
    app_id: 'app_a',
    user_app_id: 'user_1',
    timestamp: '2026-11-22T10:00:00.000Z',
    data: { event_id: eventId, response: 'yes' },
    ...fields,
  }) as unknown as WebhookEvent

describe('defaultDedupKey', () => {
  it('never gives a gesture the key of a notification response, whatever its data carries', () => {
    expect(defaultDedupKey(gesture({ data: { event_id: 'evt_1' } }))).not.toBe(defaultDedupKey(responded('evt_1')))
  })

  it("ignores a gesture's data, so two users' gestures never share a key", () => {
    const a = gesture({ user_app_id: 'user_1', data: { event_id: 'evt_1' } })
    const b = gesture({ user_app_id: 'user_2', data: { event_id: 'evt_1' } })
    expect(defaultDedupKey(a)).not.toBe(defaultDedupKey(b))
  })

  it('keys a notification response on its app and event id only, as the client knows them', () => {
    expect(defaultDedupKey(responded('evt_1', { user_app_id: 'user_2', timestamp: 'later' }))).toBe(
      defaultDedupKey(responded('evt_1')),
    )
    expect(defaultDedupKey(responded('evt_1', { app_id: 'app_b' }))).not.toBe(defaultDedupKey(responded('evt_1')))
  })

  it('is the JSON text of its parts, character for character, whatever the strings hold', () => {
    // Stored keys outlive a deploy (the Redis store): a faster way of writing them must not change one.
    const part = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }), // any UTF-16 code unit: lone surrogates, controls
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom('"', '\\', '\u0000', '\u001f', '\ud83d', '\ud83d\udc4d', '\u2028', 'evt_1'),
      fc.constant(undefined),
    )
    fc.assert(
      fc.property(part, part, part, part, (app_id, event_id, user_app_id, gesture_type) => {
        const strings = (...values: unknown[]) => values.map((value) => (typeof value === 'string' ? value : null))
        const response = { event: 'notification.responded', app_id, data: { event_id } } as unknown as WebhookEvent
        const gesture = { event: 'gesture', app_id, user_app_id, timestamp: event_id, gesture_type, data: {} }
        expect(defaultDedupKey(response)).toBe(JSON.stringify(strings('notification.responded', app_id, event_id)))
        expect(defaultDedupKey(gesture as unknown as WebhookEvent)).toBe(
          JSON.stringify(strings('gesture', app_id, user_app_id, event_id, gesture_type)),
        )
      }),
      { numRuns: 2000 },
    )
  })

  it('gives different deliveries different keys, whatever separators their fields contain', () => {
    const field = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom(':', '","', '\\', '"', ''),
      fc.constant(undefined),
    )
    const delivery = fc.record({
      event: fc.constantFrom('gesture', 'app.installed', 'notification.responded', 'x'),
      app_id: field,
      user_app_id: field,
      timestamp: field,
      gesture_type: field,
      event_id: field,
    })
    const build = ({ event_id, ...rest }: Record<string, unknown>) =>
      ({ ...rest, data: { event_id } }) as unknown as WebhookEvent
    // What identifies a delivery: the event and app, then its event id or its stable fields.
    const identity = (d: Record<string, unknown>) =>
      d.event === 'notification.responded'
        ? [d.event, d.app_id, d.event_id]
        : [d.event, d.app_id, d.user_app_id, d.timestamp, d.gesture_type]
    fc.assert(
      fc.property(delivery, delivery, (a, b) => {
        const same = JSON.stringify(identity(a)) === JSON.stringify(identity(b))
        expect(defaultDedupKey(build(a)) === defaultDedupKey(build(b))).toBe(same)
      }),
      { numRuns: 500 },
    )
  })
})

describe('dedupKeyFor', () => {
  it('keeps ordinary keys as they are', () => {
    const event = responded('evt_1')
    expect(dedupKeyFor(event)).toBe(defaultDedupKey(event))
  })

  it('stores a key over the length limit as its SHA-256, distinct per key', () => {
    const long = responded('e'.repeat(65_000))
    const other = responded(`${'e'.repeat(64_999)}f`)
    expect(dedupKeyFor(long)).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(dedupKeyFor(long)).toBe(dedupKeyFor(responded('e'.repeat(65_000))))
    expect(dedupKeyFor(long)).not.toBe(dedupKeyFor(other))
    expect(dedupKeyFor(long).length).toBeLessThanOrEqual(MAX_DEDUP_KEY_LENGTH)
  })

  it('bounds the keys of a custom key function too', () => {
    expect(dedupKeyFor(gesture(), () => 'k'.repeat(1000))).toMatch(/^sha256:/)
    expect(dedupKeyFor(gesture(), () => 'mine')).toBe('mine')
  })
})
