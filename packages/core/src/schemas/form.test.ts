import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EVENT_NAMES, EVENT_NOTES, EVENTS, type EventName, parseEvent } from './events.js'
import { text } from './form.js'
import { GESTURE_REPLY, VIBE } from './vibe.js'

// Each form holds a predicate and a zod schema of the same rules (./form.ts): these properties are
// what lets the receiver trust the predicate's "yes" without asking zod.

// A valid payload of each event: its own fields from the sample in core's list of events.
const valid = (event: EventName) => {
  const { data, ...own } = EVENT_NOTES[event].sample as { data: object }
  return {
    event,
    ...own,
    user_app_id: '3f0c6a52-9d4e-4b7e-8a51-2c7d9e0f1a3b',
    app_id: 'app_8kq2m4x7',
    timestamp: '2026-11-22T10:00:00.000Z',
    data: { ...data },
  }
}

// Values a field may take in a mutated payload: right and wrong types, edge strings, absence.
const ABSENT = Symbol('absent')
const fieldValue = fc.constantFrom<unknown>(
  ABSENT,
  '',
  'x',
  'yes',
  'no',
  'dismiss',
  'maybe',
  'emoji:',
  'emoji:👍',
  'gesture',
  'notification.responded',
  'app.installed',
  '2026-11-22T10:00:00Z',
  'Sun, 22 Nov 2026 10:00:00 GMT',
  '2026-13-45T99:00:00Z',
  'yesterday',
  0,
  42,
  true,
  null,
  [],
  {},
  { event_id: 'evt_2', response: 'no' },
  { event_id: '', response: 'yes' },
  { event_id: 'evt_3' },
)
const FIELDS = ['event', 'gesture_type', 'user_app_id', 'external_user_id', 'app_id', 'timestamp', 'data', 'extra']
const DATA_FIELDS = ['event_id', 'response', 'more']

function mutate(base: Record<string, unknown>, changes: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  if (typeof out.data === 'object' && out.data !== null) out.data = { ...(out.data as object) }
  for (const [path, value] of changes) {
    const [head, tail] = path.split('.') as [string, string | undefined]
    const target = tail ? (out[head] as Record<string, unknown> | null) : out
    if (typeof target !== 'object' || target === null || Array.isArray(target)) continue
    const key = tail ?? head
    if (value === ABSENT) delete target[key]
    else target[key] = structuredClone(value)
  }
  return out
}

const payload = fc
  .tuple(
    fc.constantFrom(...EVENT_NAMES),
    fc.array(fc.tuple(fc.constantFrom(...FIELDS, ...DATA_FIELDS.map((f) => `data.${f}`)), fieldValue), {
      maxLength: 3,
    }),
  )
  .map(([event, changes]) => mutate(valid(event), changes))

describe('the event forms', () => {
  it('pass a value only when zod accepts it and would return it unchanged', () => {
    const seen = { passed: 0, refused: 0, missed: 0 }
    fc.assert(
      fc.property(payload, (value) => {
        const form = EVENTS[value.event as keyof typeof EVENTS]
        if (!form) return
        const parsed = form.zod().safeParse(value)
        if (form.accepts(value)) {
          seen.passed++
          expect(parsed.success).toBe(true)
          expect(parsed.data).toEqual(value)
        } else {
          seen.refused++
          // Refusing a value zod accepts unchanged only costs speed, but it should not happen here.
          if (parsed.success && isDeepStrictEqual(parsed.data, value)) seen.missed++
        }
      }),
      { numRuns: 3_000 },
    )
    // The run tried both sides, and the predicate passed every valid payload it was shown.
    expect(seen.passed).toBeGreaterThan(300)
    expect(seen.refused).toBeGreaterThan(300)
    expect(seen.missed).toBe(0)
  })

  it('leaves to zod what zod would change: an own __proto__ key, a non-plain object', () => {
    const check = EVENTS['app.installed'].accepts
    const polluted = JSON.parse(`{"__proto__":{"admin":true},${JSON.stringify(valid('app.installed')).slice(1)}`)
    expect(check(polluted)).toBe(false)
    expect(check(Object.assign(Object.create({ inherited: 1 }), valid('app.installed')))).toBe(false)
    expect(check(valid('app.installed'))).toBe(true)
  })

  it('counts a minimum length in code points, as zod does', () => {
    const form = text(2)
    for (const value of ['ab', '😀', '😀😀', 'a', ''])
      expect(form.accepts(value)).toBe(form.zod().safeParse(value).success)
  })
})

// Values a vibe's fields may take: right and wrong types, edges of each bound, absence.
const vibeField = fc.constantFrom<unknown>(
  ABSENT,
  undefined,
  null,
  '',
  ' ',
  'hi',
  'x'.repeat(80),
  'x'.repeat(81),
  '😀'.repeat(80),
  'tap',
  'pulse',
  'buzz',
  true,
  false,
  0,
  149,
  150,
  150.5,
  2000,
  2001,
  Number.NaN,
  [],
  {},
)
// A valid vibe, then up to two of its fields (or its first step's) set to one of the values above.
const validVibe = fc.record({
  sequence: fc.array(
    fc.record({ type: fc.constantFrom('tap', 'pulse'), delay_ms: fc.constantFrom<unknown>(ABSENT, 150, 300, 2000) }),
    { minLength: 1, maxLength: 3 },
  ),
  message: fc.constantFrom<unknown>(ABSENT, 'hi', 'x'.repeat(80), '😀'.repeat(80)),
  show_ring_ui_notif: fc.constantFrom<unknown>(ABSENT, false, true),
})
const VIBE_FIELDS = [
  'sequence',
  'message',
  'show_ring_ui_notif',
  'priority',
  'step.type',
  'step.delay_ms',
  'step.extra',
]
const vibePayload = fc
  .tuple(validVibe, fc.array(fc.tuple(fc.constantFrom(...VIBE_FIELDS), vibeField), { maxLength: 2 }))
  .map(([base, changes]) => {
    const value: Record<string, unknown> = { ...base, sequence: base.sequence.map((step) => ({ ...step })) }
    for (const [path, field] of changes) {
      const [head, tail] = path.split('.') as [string, string | undefined]
      const first = (value.sequence as Record<string, unknown>[] | undefined)?.[0]
      const target = tail ? first : value
      if (typeof target !== 'object' || target === null || Array.isArray(target)) continue
      target[tail ?? head] = field
    }
    return strip(value)
  })

/** The value with every ABSENT field left out, at every depth. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== ABSENT)
      .map(([key, field]) => [key, strip(field)]),
  )
}

describe('the vibe and reply forms', () => {
  const vibe = VIBE.zod()
  const gestureReply = GESTURE_REPLY.zod()

  it('pass a vibe only when zod accepts it unchanged', () => {
    const seen = { passed: 0, refused: 0 }
    fc.assert(
      fc.property(vibePayload, (value) => {
        const parsed = vibe.safeParse(value)
        if (VIBE.accepts(value)) {
          seen.passed++
          expect(parsed.success).toBe(true)
          expect(parsed.data).toEqual(value)
        } else {
          seen.refused++
          if (parsed.success) expect(parsed.data).not.toEqual(value)
        }
        // A reply is a vibe inside { success, vibe }: the same verdict.
        const reply = { success: true, vibe: value }
        expect(GESTURE_REPLY.accepts(reply)).toBe(VIBE.accepts(value))
        expect(GESTURE_REPLY.accepts(reply) ? gestureReply.safeParse(reply).success : true).toBe(true)
      }),
      { numRuns: 3_000 },
    )
    expect(seen.passed).toBeGreaterThan(100)
    expect(seen.refused).toBeGreaterThan(300)
  })

  it('refuse a Ring UI notification without a message, and fields a vibe does not have', () => {
    expect(VIBE.accepts({ sequence: [{ type: 'tap' }], show_ring_ui_notif: true })).toBe(false)
    expect(VIBE.accepts({ sequence: [{ type: 'tap' }], show_ring_ui_notif: true, message: '  ' })).toBe(false)
    expect(VIBE.accepts({ sequence: [{ type: 'tap' }], show_ring_ui_notif: true, message: 'Hi' })).toBe(true)
    expect(VIBE.accepts({ sequence: [{ type: 'tap', volume: 3 }] })).toBe(false)
    expect(GESTURE_REPLY.accepts({ success: true, vibe: { sequence: [{ type: 'tap' }] }, extra: 1 })).toBe(false)
    expect(GESTURE_REPLY.accepts({ success: true })).toBe(true)
  })
})

describe('parseEvent on the fast path', () => {
  it('returns a valid event as it came, without a copy', () => {
    for (const name of EVENT_NAMES) {
      const value = { ...valid(name), extra: { kept: true } }
      const parsed = parseEvent(value)
      expect(parsed.ok && parsed.event).toBe(value)
    }
  })

  it('still answers an invalid event with zod and its issues', () => {
    const parsed = parseEvent({ ...valid('gesture'), gesture_type: 42 })
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error.issues[0]?.path).toEqual(['gesture_type'])
  })
})
