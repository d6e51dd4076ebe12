import type { LogEntry, Notification } from '@ringhook/simulator/control-api'
import { describe, expect, it } from 'vitest'
import { emptyModel, type Model, reduce } from '../ui/model.js'
import { delivery, emptyLog, install, snapshot, vibe } from './fixtures.js'

const loaded = (log = emptyLog): Model => reduce(emptyModel, { type: 'loaded', snapshot, log })
const feed = (model: Model, ...entries: LogEntry[]) =>
  entries.reduce((next, entry) => reduce(next, { type: 'entry', entry }), model)
const at = '2025-01-01T00:00:02.000Z'
const request = { request_id: 'req_1', error_code: null, key_id: 'key_1', latency_ms: 1 }

describe('reduce', () => {
  it('starts from the log: deliveries, vibes, notifications, the newest seq, and nothing to play yet', () => {
    const log = {
      ...emptyLog,
      last_seq: 7,
      entries: [{ seq: 7, at, type: 'request', ...request, method: 'GET', path: '/v1/apps', status: 200 }],
      deliveries: [delivery()],
      vibes: [vibe()],
    } satisfies typeof emptyLog
    const model = loaded(log)
    expect(model.lastSeq).toBe(7)
    expect(model.deliveries.dlv_1?.status).toBe('delivered')
    expect(model.vibes).toHaveLength(1)
    expect(model.felt).toEqual({})
  })

  it('takes the newest seq from last_seq when the simulator reports it', () => {
    expect(loaded({ ...emptyLog, last_seq: 42 }).lastSeq).toBe(42)
    expect(feed(loaded({ ...emptyLog, last_seq: 42 }), { seq: 42, type: 'vibe', ...vibe() }).vibes).toEqual([])
  })

  it('drops entries it already has, as a reconnect replays them', () => {
    const model = feed(loaded(), { seq: 1, type: 'vibe', ...vibe() })
    const again = feed(model, { seq: 1, type: 'vibe', ...vibe({ id: 'vib_other' }) })
    expect(again).toBe(model)
  })

  it('plays a delivered vibe on its user ring, and lists every vibe without the entry fields', () => {
    const model = feed(
      loaded(),
      { seq: 1, type: 'vibe', ...vibe() },
      { seq: 2, type: 'vibe', ...vibe({ id: 'vib_2', status: 'not_enabled', rule: 'not_enabled: muted' }) },
    )
    expect(model.felt.usr_1?.id).toBe('vib_1')
    expect(model.vibes.map((v) => v.id)).toEqual(['vib_1', 'vib_2'])
    expect(model.vibes[0]).not.toHaveProperty('seq')
  })

  it('applies state changes: upserts objects and removes uninstalled installs', () => {
    const muted = { ...install, muted: true }
    let model = feed(loaded(), { seq: 1, at, type: 'state', change: 'install.updated', id: 'ua-1', object: muted })
    expect(model.snapshot?.installs).toEqual([muted])
    const user = { id: 'usr_2', name: 'Grace', ring_off: true, companion_closed: false, created_at: at }
    model = feed(model, { seq: 2, at, type: 'state', change: 'user.created', id: 'usr_2', object: user })
    expect(model.snapshot?.users.map((u) => u.name)).toEqual(['Ada', 'Grace'])
    model = feed(model, { seq: 3, at, type: 'state', change: 'install.removed', id: 'ua-1', object: null })
    expect(model.snapshot?.installs).toEqual([])
  })

  it('forgets everything on reset and accepts entries numbered from 1 again', () => {
    let model = feed(loaded({ ...emptyLog, deliveries: [delivery()] }), {
      seq: 9,
      at,
      type: 'state',
      change: 'reset',
      id: '',
      object: null,
    })
    expect(model.snapshot?.users).toEqual([])
    expect(model.deliveries).toEqual({})
    expect(model.snapshot?.settings.gesture_types).toEqual(['tap', 'double_tap'])
    model = feed(model, { seq: 1, type: 'vibe', ...vibe() })
    expect(model.vibes).toHaveLength(1)
  })

  it('follows a delivery from its entries until the whole object arrives', () => {
    let model = feed(loaded(), {
      seq: 1,
      at,
      type: 'delivery.queued',
      delivery_id: 'dlv_9',
      event: 'gesture',
      app_id: 'app_1',
      user_app_id: 'ua-1',
      url: 'http://127.0.0.1:3000/webhooks',
    })
    expect(model.deliveries.dlv_9).toMatchObject({ status: 'pending', attempts: [], user_app_id: 'ua-1' })
    const attempt = {
      attempt: 1,
      at,
      outcome: 'http_error' as const,
      status: 500,
      latency_ms: 3,
      reply: 'boom',
      error: null,
      next_retry_in_ms: 1000,
    }
    model = feed(model, { seq: 2, type: 'delivery.attempt', delivery_id: 'dlv_9', event: 'gesture', ...attempt })
    expect(model.deliveries.dlv_9).toMatchObject({ status: 'retrying', attempts: [attempt] })
    model = feed(model, {
      seq: 3,
      at,
      type: 'delivery.settled',
      delivery_id: 'dlv_9',
      event: 'gesture',
      status: 'failed',
      attempts: 1,
    })
    expect(model.deliveries.dlv_9?.status).toBe('failed')
    const whole = delivery({ id: 'dlv_9', status: 'failed' })
    expect(reduce(model, { type: 'delivery', delivery: whole }).deliveries.dlv_9).toBe(whole)
  })

  it('keeps notifications current, including an await that timed out', () => {
    const notification: Notification = {
      event_id: 'evt_1',
      app_id: 'app_1',
      user_app_id: 'ua-1',
      response_mode: 'await',
      response_config: { type: 'yes_no_dismiss' },
      status: 'pending',
      response: null,
      responded_at: null,
      created_at: at,
      await: 'waiting',
    }
    let model = feed(loaded(), { seq: 1, at, type: 'notification.created', ...notification })
    model = feed(model, { seq: 2, at, type: 'notification.timeout', event_id: 'evt_1' })
    expect(model.notifications.evt_1?.await).toBe('timeout')
    model = feed(model, {
      seq: 3,
      at,
      type: 'notification.answered',
      ...notification,
      status: 'responded',
      response: 'yes',
      await: 'timeout',
    })
    expect(model.notifications.evt_1).toMatchObject({ status: 'responded', response: 'yes' })
  })
})
