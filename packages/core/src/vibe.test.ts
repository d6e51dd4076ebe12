import { describe, expect, it } from 'vitest'
import { toGestureReply } from './receiver/reply.js'
import { vibeSchema } from './schemas/vibe.js'
import { after, vibe } from './vibe.js'

describe('vibe()', () => {
  it('builds the payload the service expects', () => {
    expect(vibe('tap', after(600, 'pulse')).notify('Meeting in 5').toJSON()).toEqual({
      sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 600 }],
      message: 'Meeting in 5',
      show_ring_ui_notif: true,
    })
  })

  it('is immutable: each call returns a new builder', () => {
    const base = vibe('tap')
    base.message('changed')
    expect(base.toJSON()).toEqual({ sequence: [{ type: 'tap' }] })
  })

  it('keeps an earlier message when notify() gets none', () => {
    expect(vibe('tap').message('hi').notify().toJSON()).toMatchObject({ message: 'hi', show_ring_ui_notif: true })
  })
})

describe('vibe rules', () => {
  const valid = { sequence: [{ type: 'tap' }] }
  it.each([
    ['no steps', { sequence: [] }, 'sequence'],
    ['four steps', { sequence: Array(4).fill({ type: 'tap' }) }, 'sequence'],
    ['an unknown pattern', { sequence: [{ type: 'buzz' }] }, 'sequence.0.type'],
    ['a delay under 150', { sequence: [{ type: 'tap', delay_ms: 149 }] }, 'sequence.0.delay_ms'],
    ['a delay over 2000', { sequence: [{ type: 'tap', delay_ms: 2001 }] }, 'sequence.0.delay_ms'],
    ['a fractional delay', { sequence: [{ type: 'tap', delay_ms: 200.5 }] }, 'sequence.0.delay_ms'],
    ['a misspelt field', { sequence: [{ type: 'tap', delay: 200 }] }, 'sequence.0'],
    ['81 characters', { ...valid, message: 'x'.repeat(81) }, 'message'],
    ['a notification without message', { ...valid, show_ring_ui_notif: true }, 'message'],
    ['a notification with a blank message', { ...valid, message: '  ', show_ring_ui_notif: true }, 'message'],
  ])('rejects %s', (_name, value, path) => {
    const result = vibeSchema.safeParse(value)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path)
  })

  it.each([
    [
      'delays at both bounds',
      {
        sequence: [
          { type: 'tap', delay_ms: 150 },
          { type: 'pulse', delay_ms: 2000 },
        ],
      },
    ],
    ['80 characters', { ...valid, message: 'x'.repeat(80) }],
    ['80 emoji (counted as characters, not UTF-16 units)', { ...valid, message: '🎉'.repeat(80) }],
    ['a notification with its message', { ...valid, message: 'Hi', show_ring_ui_notif: true }],
  ])('accepts %s', (_name, value) => {
    expect(vibeSchema.safeParse(value).success).toBe(true)
  })
})

describe('toGestureReply', () => {
  it.each([
    ['nothing', undefined, { success: true }],
    ['a builder', vibe('tap'), { success: true, vibe: { sequence: [{ type: 'tap' }] } }],
    ['a plain vibe', { sequence: [{ type: 'pulse' }] }, { success: true, vibe: { sequence: [{ type: 'pulse' }] } }],
    ['a full reply', { success: false }, { success: false }],
  ])('turns %s into a reply', (_name, value, reply) => {
    expect(toGestureReply(value)).toEqual({ ok: true, reply })
  })

  it('explains an invalid reply by field', () => {
    const result = toGestureReply(vibe('tap').notify())
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/vibe\.message: is required/) })
  })

  it('rejects values that are no reply at all', () => {
    expect(toGestureReply('ok').ok).toBe(false)
  })
})
