import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { withExtras } from './closed.js'
import { isoTimestamp } from './event-schemas.js'
import {
  EVENT_NAMES,
  EVENT_NOTES,
  type EventName,
  type EventNote,
  type EventOf,
  type GestureType,
  parseEvent,
} from './events.js'

const envelope = { user_app_id: 'u1', app_id: 'app_1', timestamp: '2026-11-22T10:00:00Z', data: {} }

describe('parseEvent', () => {
  // The one test that pins the list of events: adding, removing or changing one (its name, place,
  // sample or the state it leads to) updates this snapshot (`pnpm vitest run -u <this file>`).
  it('knows every event of the spec', () => {
    const list = EVENT_NAMES.map((name) => {
      const { sample, ...note } = EVENT_NOTES[name] as EventNote<EventName>
      return { name, leadsTo: note.leadsTo ?? null, sample }
    })
    expect(list).toMatchSnapshot()
  })

  it('keeps extra fields, top level and in data', () => {
    const result = parseEvent({ ...envelope, event: 'gesture', gesture_type: 'tap', extra: 1, data: { more: true } })
    expect(result).toMatchObject({ ok: true, known: true, event: { extra: 1, data: { more: true } } })
  })

  it('reaches the kept extra fields through withExtras', () => {
    const result = parseEvent({ ...envelope, event: 'gesture', gesture_type: 'tap', intensity: 3, data: { x: 1 } })
    if (!result.ok || !result.known || result.event.event !== 'gesture') throw new Error('expected a gesture')
    const event = withExtras(result.event)
    expect([event.intensity, event.data.x, event.gesture_type]).toEqual([3, 1, 'tap'])
  })

  it('keeps external_user_id when the user linked an account', () => {
    const result = parseEvent({ ...envelope, event: 'app.installed', external_user_id: 'cust_9' })
    expect(result.ok && result.event).toMatchObject({ external_user_id: 'cust_9' })
  })

  it.each(['yes', 'no', 'dismiss', 'emoji:👍'])('accepts the response %s', (response) => {
    const result = parseEvent({ ...envelope, event: 'notification.responded', data: { event_id: 'e1', response } })
    expect(result.ok).toBe(true)
  })

  it.each(['maybe', 'emoji:', 'YES'])('rejects the response %s', (response) => {
    const result = parseEvent({ ...envelope, event: 'notification.responded', data: { event_id: 'e1', response } })
    expect(result.ok).toBe(false)
  })

  it.each([
    [
      'a known event with a missing field',
      { event: 'app.installed', app_id: 'a', timestamp: envelope.timestamp, data: {} },
    ],
    ['a bad timestamp', { ...envelope, event: 'app.installed', timestamp: 'yesterday' }],
    ['an array', []],
    ['null', null],
    ['an event name that is not a string', { ...envelope, event: 42 }],
  ])('rejects %s', (_name, value) => {
    expect(parseEvent(value).ok).toBe(false)
  })

  it('accepts an unknown event leniently, marked unknown', () => {
    expect(parseEvent({ event: 'slot.granted', anything: true })).toMatchObject({ ok: true, known: false })
  })

  it('infers event types from the schemas', () => {
    expectTypeOf<EventOf<'gesture'>['gesture_type']>().toEqualTypeOf<GestureType>()
    expectTypeOf<EventOf<'gesture'>['event']>().toEqualTypeOf<'gesture'>()
  })
})

describe('isoTimestamp', () => {
  it.each(['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00Z', '2026-11-22T10:00:00.123456+02:00', '2026-11-22'])(
    'accepts %s',
    (value) => {
      expect(isoTimestamp.safeParse(value).success).toBe(true)
    },
  )

  it.each(['yesterday', '2026-13-22T10:00:00Z', '2026-11-32T10:00:00Z', ''])('rejects %s', (value) => {
    expect(isoTimestamp.safeParse(value).success).toBe(false)
  })

  it('accepts every instant up to year 6428 as toISOString() writes it, and none after', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (date) => {
          const inRange = date.getUTCFullYear() <= 6428
          expect(isoTimestamp.safeParse(date.toISOString()).success).toBe(inRange)
        },
      ),
    )
  })
})
