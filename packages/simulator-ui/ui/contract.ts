// The simulator's control API objects, as packages/testing/CONTROL-API.md defines them.
// The page reads them and never validates them: the simulator is the only writer, and the
// contract only ever adds fields.

export type AppType = 'control' | 'device' | 'preferred_notification'
export type InstallState = 'active' | 'passive' | 'inactive'

export interface Key {
  id: string
  owner: string
  user_id: string | null
  created_at: string
}

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
  created_at: string
}

export interface Install {
  user_app_id: string
  app_id: string
  user_id: string
  state: InstallState
  installed_at: string
  external_user_id: string | null
  permissions: { vibes: boolean; gestures: boolean }
  muted: boolean
  priority_slot: boolean
}

export interface Attempt {
  attempt: number
  at: string
  outcome: 'ok' | 'http_error' | 'timeout' | 'network_error'
  status: number | null
  latency_ms: number
  reply: string | null
  error: string | null
  next_retry_in_ms: number | null
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'skipped'

export interface Delivery {
  id: string
  event: string
  app_id: string
  user_app_id: string
  url: string | null
  status: DeliveryStatus
  skipped_reason: string | null
  retry_delays_ms: number[]
  attempts: Attempt[]
  next_attempt_at: string | null
  created_at: string
  settled_at: string | null
  vibe_id: string | null
}

export interface VibeStep {
  type: 'tap' | 'pulse'
  delay_ms?: number
}

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

export interface EmojiOption {
  emoji: string
  label: string
}

export type ResponseConfig = { type: 'yes_no_dismiss' } | { type: 'emoji'; options: EmojiOption[] } | { type: 'none' }

export interface Notification {
  event_id: string
  app_id: string
  user_app_id: string
  response_mode: string
  response_config: ResponseConfig
  status: 'pending' | 'responded'
  response: string | null
  responded_at: string | null
  created_at: string
  await: 'waiting' | 'responded' | 'timeout' | null
}

export interface Settings {
  base_url: string
  api_url: string
  time_scale: number
  ack_timeout_ms: number
  retry_delays_ms: number[]
  gesture_types: string[]
  ring_latency_ms: number
}

export interface Snapshot {
  settings: Settings
  keys: Key[]
  users: User[]
  apps: App[]
  installs: Install[]
}

interface EntryBase {
  seq: number
  at: string
}

export type StateChange =
  | 'key.created'
  | 'key.updated'
  | 'user.created'
  | 'user.updated'
  | 'app.created'
  | 'app.updated'
  | 'app.secret_regenerated'
  | 'install.created'
  | 'install.updated'
  | 'install.removed'
  | 'reset'

export type StateEntry = EntryBase & { type: 'state'; change: StateChange; id: string; object: unknown }
export type GestureEntry = EntryBase & {
  type: 'gesture'
  user_app_id: string
  app_id: string
  gesture_type: string
  forwarded: boolean
  delivery_id: string | null
}
interface DeliveryRef {
  delivery_id: string
  event: string
}
export type DeliveryEntry =
  | (EntryBase & DeliveryRef & { type: 'delivery.queued' } & Pick<Delivery, 'app_id' | 'user_app_id' | 'url'>)
  | (EntryBase & DeliveryRef & { type: 'delivery.attempt' } & Attempt)
  | (EntryBase & DeliveryRef & { type: 'delivery.settled'; status: DeliveryStatus; attempts: number })
export type RequestEntry = EntryBase & {
  type: 'request'
  method: string
  path: string
  status: number
  error_code: string | null
}
export type VibeEntry = EntryBase & { type: 'vibe' } & Vibe
export type NotificationEntry = EntryBase & { type: 'notification.created' | 'notification.answered' } & Notification
export type TimeoutEntry = EntryBase & { type: 'notification.timeout'; event_id: string }

export type LogEntry =
  | StateEntry
  | GestureEntry
  | DeliveryEntry
  | RequestEntry
  | VibeEntry
  | NotificationEntry
  | TimeoutEntry

export interface LogView {
  /** The newest entry's seq, also when `entries` is filtered or cut (added to the contract later, hence optional). */
  last_seq?: number
  entries: LogEntry[]
  deliveries: Delivery[]
  vibes: Vibe[]
  notifications: Notification[]
}

export interface ErrorBody {
  error: { code: string; message: string }
}
