import type { Attempt } from '@ringhook/simulator/control-api'
import { describe, expect, it } from 'vitest'
import { logRows } from '../ui/log-rows.js'
import { emptyModel, type Model } from '../ui/model.js'
import { schedule } from '../ui/sequence.js'
import { delivery, snapshot, vibe } from './fixtures.js'

const attempt = (n: number, overrides: Partial<Attempt> = {}): Attempt => ({
  attempt: n,
  at: `2025-01-01T00:00:0${n}.000Z`,
  outcome: 'ok',
  status: 200,
  latency_ms: 12.34,
  reply: '{"success":true}',
  error: null,
  next_retry_in_ms: null,
  ...overrides,
})
const model = (overrides: Partial<Model>): Model => ({ ...emptyModel, snapshot, ...overrides })

describe('logRows', () => {
  it('shows each attempt, newest first, with its retry schedule and reply', () => {
    const failed = attempt(1, { outcome: 'http_error', status: 500, reply: 'oops', next_retry_in_ms: 1000 })
    const rows = logRows(model({ deliveries: { dlv_1: delivery({ attempts: [failed, attempt(2)] }) } }))
    expect(rows.map((row) => [row.attempt, row.status, row.outcome, row.tone, row.next, row.reply])).toEqual([
      ['2 of 4', '200', 'ok', 'ok', '—', '{"success":true}'],
      ['1 of 4', '500', 'http error', 'wait', 'in 1 s (schedule 1 s, 5 s, 30 s)', 'oops'],
    ])
    expect(rows[0]).toMatchObject({ event: 'gesture', target: 'Demo · Ada', latency: '12.3 ms' })
  })

  it('labels injected faults, shows the explanation of each refusal, and offers Resend on a failed delivery', () => {
    const note = 'unauthorized: the receiver rejected the signature or the timestamp'
    const refused = (n: number) =>
      attempt(n, { outcome: 'http_error', status: 401, note, next_retry_in_ms: n < 4 ? 1000 : null })
    const failed = delivery({
      status: 'failed',
      attempts: [attempt(1, { fault: 'duplicate' }), refused(2), refused(3), refused(4)],
      faults: [{ fault: 'reorder', attempt: null, detail: 'held back' }],
    })
    const rows = logRows(model({ deliveries: { dlv_1: failed } }))
    expect(rows.map((row) => [row.fault, row.resend])).toEqual([
      [null, 'dlv_1'],
      [null, null],
      [null, null],
      ['reorder, duplicate', null],
    ])
    expect(rows[0]?.note).toBe(`${note} Failed after 4 attempts: the service gave up.`)
    expect(rows[1]?.note).toBe(note)
  })

  it('labels a delivery loaded from a capture on each row, and offers Resend once it is delivered', () => {
    const retried = attempt(1, { outcome: 'http_error', status: 503, next_retry_in_ms: 1000 })
    const captured = (status: 'retrying' | 'delivered', attempts: Attempt[]) =>
      logRows(model({ deliveries: { dlv_1: delivery({ capture_id: 'cap-1', status, attempts }) } }))
    expect(captured('retrying', [retried]).map((row) => [row.captured, row.resend])).toEqual([['cap-1', null]])
    const rows = captured('delivered', [retried, attempt(2)])
    expect(rows.map((row) => [row.captured, row.resend, row.failed])).toEqual([
      ['cap-1', 'dlv_1', false],
      ['cap-1', null, false],
    ])
    // Not a failed delivery: "Resend every failed delivery" leaves it alone.
    expect(logRows(model({ deliveries: { dlv_1: delivery({ attempts: [attempt(1)] }) } }))[0]).toMatchObject({
      captured: null,
      resend: null,
    })
  })

  it('explains which trigger rule a gesture reply broke, on its last attempt', () => {
    const rejected = vibe({ status: 'rejected', rule: 'sequence.0.type: Invalid option' })
    const rows = logRows(model({ deliveries: { dlv_1: delivery({ attempts: [attempt(1)] }) }, vibes: [rejected] }))
    expect(rows[0]?.note).toBe('Reply vibe rejected: sequence.0.type: Invalid option')
  })

  it('lists gestures that sent no webhook, skipped deliveries and refused API calls', () => {
    const rows = logRows(
      model({
        deliveries: { dlv_2: delivery({ id: 'dlv_2', status: 'skipped', skipped_reason: 'no_webhook_url' }) },
        gestures: [
          {
            seq: 4,
            at: '2025-01-01T00:00:05.000Z',
            type: 'gesture',
            user_app_id: 'ua-1',
            app_id: 'app_1',
            gesture_type: 'double_tap',
            forwarded: false,
            delivery_id: null,
          },
        ],
        refused: [
          {
            seq: 5,
            at: '2025-01-01T00:00:06.000Z',
            type: 'request',
            request_id: 'req_1',
            method: 'POST',
            path: '/v1/vibes/trigger',
            status: 403,
            error_code: 'permission_denied',
            key_id: 'key_1',
            latency_ms: 1,
          },
        ],
      }),
    )
    expect(rows.map((row) => [row.event, row.outcome])).toEqual([
      ['POST /v1/vibes/trigger', 'permission_denied'],
      ['gesture', 'not forwarded'],
      ['gesture', 'skipped'],
    ])
    expect(rows[1]?.note).toContain('gesture forwarding is off')
    expect(rows[2]?.note).toBe('The app has no webhook URL.')
  })
})

describe('schedule', () => {
  it('waits each step delay (300 ms by default) before the step, then lights it', () => {
    expect(schedule([{ type: 'tap' }, { type: 'pulse', delay_ms: 1000 }])).toEqual([
      { type: 'tap', delay: 300, start: 300, end: 420 },
      { type: 'pulse', delay: 1000, start: 1420, end: 1870 },
    ])
  })
})
