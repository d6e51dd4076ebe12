import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../crypto/sha256.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import { canonicalJson } from './canonical-json.js'
import { DEDUP_KEY_VERSION, dedupKeyFor, defaultDedupKey, MAX_DEDUP_KEY_LENGTH } from './key.js'

type Payload = Record<string, unknown>
const key = (payload: Payload) => defaultDedupKey(payload as unknown as WebhookEvent | UnknownEvent)

const gesture = (fields: Payload = {}): Payload => ({
  event: 'gesture',
  gesture_type: 'tap',
  app_id: 'app_a',
  user_app_id: 'user_1',
  timestamp: '2026-11-22T10:00:00.000Z',
  data: {},
  ...fields,
})

const responded = (eventId: string, fields: Payload = {}): Payload => ({
  event: 'notification.responded',
  app_id: 'app_a',
  user_app_id: 'user_1',
  timestamp: '2026-11-22T10:00:00.000Z',
  data: { event_id: eventId, response: 'yes' },
  ...fields,
})

/** A slot event: the spec says they exist for preferred_notification apps, without names or payloads. */
const slot = (data: Payload, fields: Payload = {}): Payload => ({
  event: 'slot.opened',
  app_id: 'app_a',
  user_app_id: 'user_1',
  timestamp: '2026-11-22T10:00:00Z',
  data,
  ...fields,
})

/** What the receiver gets from the bytes a delivery carries. */
const received = (bytes: string) => key(JSON.parse(bytes) as Payload)

describe('defaultDedupKey', () => {
  it('is versioned, so a change of format is told apart from the keys before it', () => {
    expect(DEDUP_KEY_VERSION).toBe('v2:')
    for (const payload of [gesture(), responded('evt_1'), slot({ slot: 'a' }), slot({ event_id: 'e' })])
      expect(key(payload).startsWith('v2:["')).toBe(true)
  })

  it('gives two deliveries of an event the kit does not know different keys when their data differs', () => {
    // Same user, same timestamp: only `data` tells them apart.
    expect(key(slot({ slot: 'a' }))).not.toBe(key(slot({ slot: 'b' })))
    // No user, no timestamp: still one key per data, not one for every later event of that name.
    const bare = (data: Payload) => key({ event: 'slot.granted', app_id: 'app1', data })
    expect(bare({ slot: 'a' })).not.toBe(bare({ slot: 'b' }))
    expect(bare({ slot: 'a' })).toBe(bare({ slot: 'a' }))
  })

  it('keys an unknown event by its data.event_id when it has one, whatever else its data holds', () => {
    const first = slot({ event_id: 'slot_1', state: 'open' })
    expect(key(slot({ event_id: 'slot_1', state: 'open' }, { timestamp: 'later' }))).toBe(key(first))
    expect(key(slot({ event_id: 'slot_2', state: 'open' }))).not.toBe(key(first))
    expect(key(slot({ event_id: 'slot_1' }, { app_id: 'app_b' }))).not.toBe(key(first))
    expect(key(slot({ event_id: 'slot_1' }, { event: 'slot.closed' }))).not.toBe(key(first))
    // An id that is not a string is no id: the data's digest keys it.
    expect(key(slot({ event_id: 1, n: 1 }))).not.toBe(key(slot({ event_id: 1, n: 2 })))
  })

  it('keys a notification response on its app and event id only, as the client knows them', () => {
    expect(key(responded('evt_1', { user_app_id: 'user_2', timestamp: 'later' }))).toBe(key(responded('evt_1')))
    expect(key(responded('evt_1', { app_id: 'app_b' }))).not.toBe(key(responded('evt_1')))
    expect(key(responded('evt_2'))).not.toBe(key(responded('evt_1')))
  })

  it('includes the data of known events, which the spec shows empty but does not close', () => {
    expect(key(gesture({ data: { extra: 1 } }))).not.toBe(key(gesture()))
    expect(key(gesture({ external_user_id: 'u-42' }))).not.toBe(key(gesture()))
    expect(key({ ...gesture(), event: 'app.installed', data: { plan: 'pro' } })).not.toBe(
      key({ ...gesture(), event: 'app.installed' }),
    )
  })

  it('never gives a gesture the key of a notification response, whatever its data carries', () => {
    expect(key(gesture({ data: { event_id: 'evt_1' } }))).not.toBe(key(responded('evt_1')))
    // Nor two users' gestures one key because their data shares an id.
    expect(key(gesture({ user_app_id: 'user_2', data: { event_id: 'evt_1' } }))).not.toBe(
      key(gesture({ data: { event_id: 'evt_1' } })),
    )
  })

  it('gives a retry the key of its delivery: same values, whatever the order or spacing of its bytes', () => {
    const original =
      '{"event":"slot.opened","app_id":"a","user_app_id":"u","timestamp":"2026-11-22T10:00:00Z","data":{"slot":"a","n":[1,2]}}'
    const reordered =
      '{ "data": { "n": [1, 2], "slot": "a" }, "timestamp": "2026-11-22T10:00:00Z", "user_app_id": "u", "app_id": "a", "event": "slot.opened" }'
    expect(received(reordered)).toBe(received(original))
    expect(received(original.replace('"n":[1,2]', '"n":[2,1]'))).not.toBe(received(original))
  })

  // The spec stamps a payload with an ISO 8601 timestamp without saying its precision: if the service
  // stamps in whole seconds, two gestures in one second may carry the same timestamp.
  describe('payloads with equal timestamps (second precision)', () => {
    const at = (fields: Payload) => gesture({ timestamp: '2026-11-22T10:00:07Z', ...fields })

    it('are one delivery when every value is equal: a second identical gesture in that second is a retry to the kit', () => {
      expect(key(at({}))).toBe(key(at({})))
      expect(key(at({ data: {} }))).toBe(key(JSON.parse(JSON.stringify(at({}))) as Payload))
    })

    it('are two deliveries when any value differs: type, user, data, linked id, or the second', () => {
      const one = key(at({}))
      expect(key(at({ gesture_type: 'double_tap' }))).not.toBe(one)
      expect(key(at({ user_app_id: 'user_2' }))).not.toBe(one)
      expect(key(at({ data: { n: 1 } }))).not.toBe(one)
      expect(key(at({ external_user_id: 'u-42' }))).not.toBe(one)
      expect(key(at({ timestamp: '2026-11-22T10:00:08Z' }))).not.toBe(one)
      expect(key(slot({ slot: 'a' }, { timestamp: '2026-11-22T10:00:07Z' }))).not.toBe(
        key(slot({ slot: 'b' }, { timestamp: '2026-11-22T10:00:07Z' })),
      )
    })
  })

  it('is the version and the JSON text of its parts, character for character, whatever the strings hold', () => {
    // Stored keys outlive a deploy (the Redis store): a faster way of writing them must not change one.
    const empty = sha256Hex(canonicalJson({ data: {} })).slice(0, 32)
    const part = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }), // any UTF-16 code unit: lone surrogates, controls
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom('"', '\\', '\u0000', '\u001f', '\ud83d', '\ud83d\udc4d', '\u2028', 'evt_1'),
      fc.constant(undefined),
    )
    fc.assert(
      fc.property(part, part, part, part, (app_id, event_id, user_app_id, gesture_type) => {
        const strings = (...values: unknown[]) => values.map((value) => (typeof value === 'string' ? value : null))
        const response = { event: 'notification.responded', app_id, data: { event_id } }
        const tap = { event: 'gesture', app_id, user_app_id, timestamp: event_id, gesture_type, data: {} }
        expect(key(response)).toBe(`v2:${JSON.stringify(strings('notification.responded', app_id, event_id))}`)
        expect(key(tap)).toBe(
          `v2:${JSON.stringify([...strings('gesture', app_id, user_app_id, event_id, gesture_type), empty])}`,
        )
      }),
      { numRuns: 300 },
    )
  })

  it('gives two payloads one key exactly when they are one delivery, whatever their fields hold', () => {
    const field = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.constantFrom(':', '","', '\\', '"', ''),
      fc.constant(undefined),
    )
    const delivery = fc.record(
      {
        event: fc.constantFrom('gesture', 'app.installed', 'notification.responded', 'slot.opened', 'x'),
        app_id: field,
        user_app_id: field,
        timestamp: field,
        gesture_type: field,
        external_user_id: field,
        data: fc.oneof(
          fc.record({ event_id: field }, { requiredKeys: [] }),
          fc.dictionary(fc.constantFrom('event_id', 'slot', 'n'), fc.oneof(field, fc.integer({ min: 0, max: 2 }))),
        ),
      },
      { requiredKeys: ['event', 'data'] },
    )
    // One delivery: the service's id when it issues one, otherwise every value of the payload.
    const identity = (d: Payload) => {
      const eventId = (d.data as Payload).event_id
      const byId =
        d.event === 'notification.responded' ||
        (typeof eventId === 'string' && ['slot.opened', 'x'].includes(d.event as string))
      return byId
        ? canonicalJson([d.event, d.app_id ?? null, typeof eventId === 'string' ? eventId : null])
        : canonicalJson(d)
    }
    fc.assert(
      fc.property(delivery, delivery, (a, b) => {
        expect(key(a) === key(b)).toBe(identity(a) === identity(b))
        // Any pair is also checked against itself, sent again with its fields in another order.
        expect(key(JSON.parse(canonicalJson(a)) as Payload)).toBe(key(a))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('dedupKeyFor', () => {
  it('keeps ordinary keys as they are', () => {
    const event = responded('evt_1') as unknown as WebhookEvent
    expect(dedupKeyFor(event)).toBe(defaultDedupKey(event))
  })

  it('stores a key over the length limit as its SHA-256, distinct per key', () => {
    const long = responded('e'.repeat(65_000)) as unknown as WebhookEvent
    const other = responded(`${'e'.repeat(64_999)}f`) as unknown as WebhookEvent
    expect(dedupKeyFor(long)).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(dedupKeyFor(long)).toBe(dedupKeyFor(responded('e'.repeat(65_000)) as unknown as WebhookEvent))
    expect(dedupKeyFor(long)).not.toBe(dedupKeyFor(other))
    expect(dedupKeyFor(long).length).toBeLessThanOrEqual(MAX_DEDUP_KEY_LENGTH)
  })

  it('bounds the keys of a custom key function too', () => {
    const event = gesture() as unknown as WebhookEvent
    expect(dedupKeyFor(event, () => 'k'.repeat(1000))).toMatch(/^sha256:/)
    expect(dedupKeyFor(event, () => 'mine')).toBe('mine')
  })
})
