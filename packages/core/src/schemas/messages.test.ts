import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { installListSchema, triggerRequestSchema } from './api.js'
import { parseEvent } from './events.js'
import { describeIssue } from './messages.js'

const said = (result: { error?: { issues: readonly { path: PropertyKey[]; message: string }[] } | undefined }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? []

const envelope = { user_app_id: 'u1', app_id: 'app_1', timestamp: '2026-11-22T10:00:00Z', data: {} }

// zod/mini has no English of its own ("Invalid input" for everything): these are the words the
// receiver logs for invalid_payload and @ringhook/client puts in its errors.
describe('issue messages of the schemas', () => {
  it('names the expected type, and what came instead, without the value', () => {
    const result = parseEvent({ ...envelope, event: 'gesture', gesture_type: 4, data: ['secret'] })
    expect(result.ok || said(result)).toEqual([
      'gesture_type: expected string, received number',
      'data: expected object, received array',
    ])
  })

  it('says a field is missing, empty or not a timestamp', () => {
    const result = parseEvent({ event: 'app.installed', user_app_id: '', timestamp: 'yesterday', data: {} })
    expect(result.ok || said(result)).toEqual([
      'user_app_id: must not be empty',
      'app_id: required, expected string',
      'timestamp: must be an ISO 8601 timestamp from year 0000 to 6428',
    ])
  })

  it('lists the allowed values', () => {
    const result = parseEvent({
      ...envelope,
      event: 'notification.responded',
      data: { event_id: 'e1', response: 'maybe' },
    })
    expect(result.ok || said(result)).toEqual(['data.response: expected "yes", "no", "dismiss" or "emoji:<emoji>"'])
    const trigger = { user_app_id: 'u', app_id: 'a', sequence: [{ type: 'tap' }] }
    expect(said(triggerRequestSchema.safeParse({ ...trigger, response_mode: 'now' }))).toEqual([
      'response_mode: expected one of "webhook", "poll", "await"',
    ])
    expect(said(triggerRequestSchema.safeParse({ ...trigger, response_config: { type: 'slider' } }))).toEqual([
      'response_config.type: expected one of "none", "yes_no_dismiss", "emoji"',
    ])
  })

  it('words bounds in items, characters and numbers, and names unknown fields', () => {
    const trigger = { user_app_id: 'u', app_id: 'a', sequence: [] }
    expect(said(triggerRequestSchema.safeParse({ ...trigger, timeout_ms: 1.5, priority: 1 }))).toEqual([
      'sequence: must be at least 1 item',
      'timeout_ms: expected an integer, received number',
      ': unknown field "priority"',
    ])
    const steps = [{ type: 'tap', delay_ms: 100 }, { type: 'tap' }]
    expect(
      said(triggerRequestSchema.safeParse({ ...trigger, sequence: steps, response_mode: 'await', timeout_ms: 1 })),
    ).toEqual(['sequence.0.delay_ms: must be at least 150', 'timeout_ms: must be at least 5000'])
    expect(
      said(
        installListSchema.safeParse({ installs: [{ user_app_id: 'u', is_active: 'yes', installed_at: '2026-01-01' }] }),
      ),
    ).toEqual(['installs.0.is_active: expected boolean, received string'])
  })

  it('leaves the zod of the app alone: no global configuration', () => {
    // A schema the app builds is not worded by ringhook (it reads "Invalid input", or zod's English
    // if the app loaded zod classic, which configures it).
    expect(z.string().safeParse(1).error?.issues[0]?.message).not.toBe('expected string, received number')
    expect(describeIssue({ code: 'custom', input: 1, path: [] })).toBeUndefined()
  })
})
