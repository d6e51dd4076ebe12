import type { VibeStep, WebhookEvent } from '@ringhook/core'
import type { ResponseMode, UserState } from '@ringhook/core/api'

// The simulator's objects, as the control API shows them (see CONTROL-API.md).

export type AppType = 'control' | 'device' | 'preferred_notification'

/** An API key. Apps belong to an owner; `user_id` is the user account `@me` means. */
export interface Key {
  id: string
  token: string
  owner: string
  user_id: string | null
  created_at: string
}

/** A person with a ring; ring-level barriers live here. */
export interface User {
  id: string
  name: string
  ring_off: boolean
  companion_closed: boolean
  created_at: string
}

export interface App {
  app_id: string
  name: string
  type: AppType
  owner: string
  webhook_url: string | null
  secret: string
  created_at: string
}

/** One user's installation of one app; app-level permissions and barriers live here. */
export interface Install {
  user_app_id: string
  app_id: string
  user_id: string
  state: UserState
  installed_at: string
  external_user_id: string | null
  permissions: { vibes: boolean; gestures: boolean }
  muted: boolean
  priority_slot: boolean
}

export type AttemptOutcome = 'ok' | 'http_error' | 'timeout' | 'network_error'

export interface Attempt {
  attempt: number
  at: string
  outcome: AttemptOutcome
  status: number | null
  latency_ms: number
  reply: string | null
  error: string | null
  next_retry_in_ms: number | null
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'skipped'

/** One webhook and all its attempts. */
export interface Delivery {
  id: string
  event: WebhookEvent['event']
  app_id: string
  user_app_id: string
  url: string | null
  payload: WebhookEvent
  status: DeliveryStatus
  skipped_reason: 'no_webhook_url' | null
  retry_delays_ms: number[]
  attempts: Attempt[]
  next_attempt_at: string | null
  created_at: string
  settled_at: string | null
  vibe_id: string | null
}

/** What reached a ring, or did not, and why. */
export interface Vibe {
  id: string
  source: 'trigger' | 'gesture_reply'
  app_id: string
  user_app_id: string
  user_id: string
  event_id: string | null
  delivery_id: string | null
  status: 'delivered' | 'not_enabled' | 'rejected'
  rule: string | null
  sequence: VibeStep[]
  message: string | null
  show_ring_ui_notif: boolean
  at: string
}

export type ResponseConfigKept =
  | { type: 'yes_no_dismiss' }
  | { type: 'emoji'; options: { emoji: string; label: string }[] }

/** A trigger that asked the user for an answer. */
export interface Notification {
  event_id: string
  app_id: string
  user_app_id: string
  response_mode: ResponseMode
  response_config: ResponseConfigKept
  status: 'pending' | 'responded'
  response: string | null
  responded_at: string | null
  created_at: string
  await: 'waiting' | 'responded' | 'timeout' | null
}

/** The simulator's settings as the control API shows them. */
export interface Settings {
  base_url: string
  api_url: string
  time_scale: number
  ack_timeout_ms: number
  retry_delays_ms: number[]
  gesture_types: string[]
  ring_latency_ms: number
  rate_limits: {
    requests_per_key: { limit: number; window_ms: number }
    vibes_per_user: { limit: number; window_ms: number }
  }
}

export interface Snapshot {
  settings: Settings
  keys: Key[]
  users: User[]
  apps: App[]
  installs: Install[]
}
