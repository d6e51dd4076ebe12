import { describe, expect, it } from 'vitest'
import {
  eventResponseRecordSchema,
  serviceTriggerRequestSchema,
  triggerRequestSchema,
  triggerResultSchema,
} from './api.js'

const base = { user_app_id: 'u-1', app_id: 'app_demo', sequence: [{ type: 'tap' }] }
const issuePaths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? []

describe('triggerRequestSchema', () => {
  it('accepts a minimal trigger and one using every field', () => {
    expect(triggerRequestSchema.safeParse(base).success).toBe(true)
    const full = {
      ...base,
      sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 150 }, { type: 'tap', delay_ms: 2000 }],
      message: 'Coffee?',
      show_ring_ui_notif: true,
      response_config: {
        type: 'emoji',
        options: [
          { emoji: '👍', label: 'Yes please' },
          { emoji: '👎', label: 'No' },
        ],
      },
      response_mode: 'await',
      timeout_ms: 5000,
    }
    expect(triggerRequestSchema.safeParse(full).success).toBe(true)
  })

  it.each([
    ['four steps', { sequence: Array(4).fill({ type: 'tap' }) }, 'sequence'],
    ['a delay under 150', { sequence: [{ type: 'tap', delay_ms: 149 }] }, 'sequence.0.delay_ms'],
    ['an unknown pattern', { sequence: [{ type: 'buzz' }] }, 'sequence.0.type'],
    ['a notification without message', { show_ring_ui_notif: true }, 'message'],
    ['an 81-character message', { message: 'x'.repeat(81) }, 'message'],
    ['timeout_ms outside await', { response_mode: 'poll', timeout_ms: 5000 }, 'timeout_ms'],
    ['timeout_ms over 60000', { response_mode: 'await', timeout_ms: 60001 }, 'timeout_ms'],
    [
      'one emoji option',
      { response_config: { type: 'emoji', options: [{ emoji: '👍', label: 'ok' }] } },
      'response_config.options',
    ],
    [
      'six emoji options',
      { response_config: { type: 'emoji', options: Array(6).fill({ emoji: '👍', label: 'ok' }) } },
      'response_config.options',
    ],
    [
      'a 16-character label',
      { response_config: { type: 'emoji', options: Array(2).fill({ emoji: '👍', label: 'x'.repeat(16) }) } },
      'response_config.options.0.label',
    ],
    ['an unknown field', { priority: 'high' }, ''],
  ])('refuses %s, naming the field', (_name, patch, path) => {
    expect(issuePaths(triggerRequestSchema.safeParse({ ...base, ...patch }))).toContain(path)
  })

  it('counts an emoji as one character in a message', () => {
    expect(triggerRequestSchema.safeParse({ ...base, message: '🔔'.repeat(80) }).success).toBe(true)
  })
})

describe('serviceTriggerRequestSchema', () => {
  it('accepts what the service truncates, and ignores unknown fields', () => {
    const options = Array(7).fill({ emoji: '👍', label: 'a label far longer than fifteen' })
    const parsed = serviceTriggerRequestSchema.safeParse({
      ...base,
      extra: 1,
      response_config: { type: 'emoji', options },
    })
    expect(parsed.success).toBe(true)
  })
})

describe('trigger results', () => {
  it('discriminates on response_mode', () => {
    const awaited = triggerResultSchema.parse({
      success: true,
      event_id: 'evt_1',
      response_mode: 'await',
      response: { status: 'responded', value: 'emoji:👍', responded_at: '2026-01-01T00:00:00Z' },
    })
    expect(awaited.response_mode === 'await' && awaited.response.value).toBe('emoji:👍')
    const refused = triggerResultSchema.parse({
      success: false,
      event_id: null,
      response_mode: 'poll',
      delivery_status: 'not_enabled',
    })
    expect(refused.success).toBe(false)
  })

  it('reads a pending poll record', () => {
    const record = { event_id: 'evt_1', status: 'pending', response: null, responded_at: null }
    expect(eventResponseRecordSchema.parse(record)).toEqual(record)
  })
})
