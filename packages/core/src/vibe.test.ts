import { describe, expect, it } from 'vitest'
import { toGestureReply } from './receiver/reply.js'
import { vibeSchema } from './schemas/vibe-schemas.js'
import { after, type StepInputs, vibe } from './vibe.js'
import { VibeRuleError } from './vibe-rules.js'

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

  it('accepts every limit at its bound', () => {
    const built = vibe(after(150, 'tap'), after(2000, 'pulse'), 'tap').notify('🎉'.repeat(80))
    expect(built.toJSON().sequence).toHaveLength(3)
  })
})

describe('vibe() refuses what the trigger rules refuse, when it is built', () => {
  // Untyped callers (JavaScript, `as never`) reach the run-time checks the types stand in front of.
  const untyped = (...steps: unknown[]) => vibe(...(steps as StepInputs))

  it.each([
    ['no steps', () => untyped(), 'steps', /a vibe has 1 to 3 steps \(sequence\), this one has 0/],
    ['four steps', () => untyped('tap', 'tap', 'tap', 'tap'), 'steps', /this one has 4/],
    ['an unknown pattern', () => untyped('tap', 'buzz'), 'pattern', /step 2 is "buzz": a step is "tap" or "pulse"/],
    ['a delay under 150', () => untyped({ type: 'tap', delay_ms: 149 }), 'delay', /step 1 waits 149 ms/],
    ['a misspelt step field', () => untyped({ type: 'tap', delay: 200 }), 'shape', /unknown fields "delay"/],
    ['an 81-character message', () => vibe('tap').message('x'.repeat(81)), 'message_length', /this one has 81/],
    ['a notification without message', () => vibe('tap').notify(), 'message_required', /needs a message/],
    ['a blank notification message', () => vibe('tap').notify('  '), 'message_required', /needs a message/],
    [
      'emptying the message of a notification',
      () => vibe('tap').notify('Hi').message(''),
      'message_required',
      /needs a message/,
    ],
  ])('%s', (_name, build, rule, message) => {
    expect(build).toThrow(VibeRuleError)
    expect(build).toThrow(
      expect.objectContaining({ name: 'VibeRuleError', rule, message: expect.stringMatching(message) }),
    )
  })

  it.each([
    [149, 'delay'],
    [2001, 'delay'],
    [200.5, 'delay'],
  ])('refuses after(%s) at once', (delayMs, rule) => {
    expect(() => after(delayMs, 'tap')).toThrow(
      expect.objectContaining({ rule, message: expect.stringContaining(`after(${delayMs}, "tap")`) }),
    )
  })

  it('lists every broken rule', () => {
    try {
      untyped({ type: 'buzz' }, { type: 'tap', delay_ms: 5 })
      expect.unreachable()
    } catch (error) {
      expect((error as VibeRuleError).issues.map((issue) => issue.rule)).toEqual(['pattern', 'delay'])
    }
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
    [
      'a builder with a delay, a message and the notification',
      vibe('tap', after(600, 'pulse')).notify('Meeting'),
      {
        success: true,
        vibe: {
          sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 600 }],
          message: 'Meeting',
          show_ring_ui_notif: true,
        },
      },
    ],
    ['a plain vibe', { sequence: [{ type: 'pulse' }] }, { success: true, vibe: { sequence: [{ type: 'pulse' }] } }],
    ['a full reply', { success: false }, { success: false }],
    [
      'a vibe from another copy of the package (anything with toJSON)',
      { toJSON: () => ({ sequence: [{ type: 'tap' }] }) },
      { success: true, vibe: { sequence: [{ type: 'tap' }] } },
    ],
  ])('turns %s into a reply', (_name, value, reply) => {
    expect(toGestureReply(value)).toEqual({ ok: true, reply })
  })

  it.each([
    ['a plain vibe with four steps', { sequence: Array(4).fill({ type: 'tap' }) }, /a vibe has 1 to 3 steps/],
    // Only a vibe this copy built skips the check: another copy's is checked like a plain object.
    ['a vibe from another copy with no steps', { toJSON: () => ({ sequence: [] }) }, /a vibe has 1 to 3 steps/],
    ['a notification without message', { sequence: [{ type: 'tap' }], show_ring_ui_notif: true }, /needs a message/],
    [
      'a reply whose vibe has a bad step',
      { success: true, vibe: { sequence: [{ type: 'buzz' }] } },
      /step 1 is "buzz"/,
    ],
    ['success as text', { success: 'yes' }, /success must be true or false/],
    ['a reply with a misspelt field', { success: true, vibes: {} }, /unknown fields "vibes"/],
    ['a string', 'ok', /returns vibe\(\.\.\.\).*it returned a string/],
    ['an object that is no reply', { sequense: [] }, /it returned an object with "sequense"/],
  ])("explains %s in the rules' words, without schema paths", (_name, value, message) => {
    const result = toGestureReply(value)
    expect(result).toEqual({ ok: false, message: expect.stringMatching(message) })
    expect(result.ok || result.message).not.toMatch(/expected boolean|Invalid input|sequence\.0/)
  })
})
