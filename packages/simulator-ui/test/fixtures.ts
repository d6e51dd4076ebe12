import type { Delivery, Install, LogView, Snapshot, Vibe } from '@ringhook/simulator/control-api'

// Objects of the control API, typed by its one definition in the simulator (@ringhook/simulator/control-api).

export const install: Install = {
  user_app_id: 'ua-1',
  app_id: 'app_1',
  user_id: 'usr_1',
  state: 'active',
  installed_at: '2025-01-01T00:00:00.000Z',
  external_user_id: null,
  permissions: { vibes: true, gestures: true },
  muted: false,
  priority_slot: true,
}

export const snapshot: Snapshot = {
  settings: {
    base_url: 'http://127.0.0.1:4010',
    api_url: 'http://127.0.0.1:4010/v1',
    time_scale: 1,
    ack_timeout_ms: 30_000,
    retry_delays_ms: [1000, 5000, 30_000],
    gesture_types: ['tap', 'double_tap'],
    ring_latency_ms: 25,
    rate_limits: {
      requests_per_key: { limit: 100, window_ms: 60_000 },
      vibes_per_user: { limit: 30, window_ms: 60_000 },
    },
  },
  keys: [],
  users: [
    { id: 'usr_1', name: 'Ada', ring_off: false, companion_closed: false, created_at: '2025-01-01T00:00:00.000Z' },
  ],
  apps: [
    {
      app_id: 'app_1',
      name: 'Demo',
      type: 'control',
      owner: 'dev_1',
      webhook_url: 'http://127.0.0.1:3000/webhooks',
      secret: 'whsec_fixture',
      created_at: '2025-01-01T00:00:00.000Z',
    },
  ],
  installs: [install],
}

export const emptyLog: LogView = { last_seq: 0, entries: [], deliveries: [], vibes: [], notifications: [] }

export function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 'dlv_1',
    event: 'gesture',
    app_id: 'app_1',
    user_app_id: 'ua-1',
    url: 'http://127.0.0.1:3000/webhooks',
    payload: {
      event: 'gesture',
      user_app_id: 'ua-1',
      app_id: 'app_1',
      timestamp: '2025-01-01T00:00:01.000Z',
      gesture_type: 'tap',
      data: {},
    },
    status: 'delivered',
    skipped_reason: null,
    retry_delays_ms: [1000, 5000, 30_000],
    attempts: [],
    next_attempt_at: null,
    faults: [],
    resend_of: null,
    capture_id: null,
    created_at: '2025-01-01T00:00:01.000Z',
    settled_at: null,
    vibe_id: null,
    ...overrides,
  }
}

export function vibe(overrides: Partial<Vibe> = {}): Vibe {
  return {
    id: 'vib_1',
    source: 'gesture_reply',
    app_id: 'app_1',
    user_app_id: 'ua-1',
    user_id: 'usr_1',
    event_id: null,
    delivery_id: 'dlv_1',
    status: 'delivered',
    rule: null,
    sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 500 }],
    message: 'Got your tap',
    show_ring_ui_notif: false,
    at: '2025-01-01T00:00:01.100Z',
    ...overrides,
  }
}
