import type { WebhookEvent } from '@ringhook/core'
import type { ResponseMode, UserState, VibeStep } from '@ringhook/core/api'
import type { FaultName, InjectedFault } from './faults/kinds.js'

// The simulator's objects, as the control API shows them (see CONTROL-API.md).

/**
 * The kind of app, which decides what it may do: only control apps can be passive, gestures reach
 * control and device apps, and a preferred_notification app reaches a ring only from a priority slot.
 */
export type AppType = 'control' | 'device' | 'preferred_notification'

/** An API key. Apps belong to an owner; `user_id` is the user account `@me` means. */
export interface Key {
  /** `key_<n>` unless given. */
  id: string
  /** The bearer token, `rk_sim_…`; shown only in the state and in the answer that created the key. */
  token: string
  /** The developer account; every key of the same owner sees the same apps. */
  owner: string
  /** The user account `@me` means for this key, or null. */
  user_id: string | null
  /** ISO 8601, from the simulator's clock. */
  created_at: string
}

/** A person with a ring; ring-level barriers live here. */
export interface User {
  /** `usr_<n>` unless given. */
  id: string
  /** Shown on the page; the service never sees it. */
  name: string
  /** The ring is off: vibes are refused as `not_enabled`. */
  ring_off: boolean
  /** The companion app is closed: vibes are refused as `not_enabled`. */
  companion_closed: boolean
  /** ISO 8601, from the simulator's clock. */
  created_at: string
}

/** An app on the apps page, owned by a developer account. */
export interface App {
  /** `app_…` unless given. */
  app_id: string
  /** The app's display name. */
  name: string
  /** Control, device or preferred_notification; `control` unless given. */
  type: AppType
  /** The developer account the app belongs to: that of the key that created it. */
  owner: string
  /** Where its webhooks go; null means they are recorded as skipped. */
  webhook_url: string | null
  /** The webhook secret; shown only in the state and in the answers that create or change it. */
  secret: string
  /** ISO 8601, from the simulator's clock. */
  created_at: string
}

/** One user's installation of one app; app-level permissions and barriers live here. */
export interface Install {
  /** The install's id, a UUID: the service's "user" as the app sees it. */
  user_app_id: string
  /** The app installed. */
  app_id: string
  /** The user who installed it. */
  user_id: string
  /** `inactive` until activated. */
  state: UserState
  /** ISO 8601, from the simulator's clock. */
  installed_at: string
  /** The developer's own id for the user, when the user linked their account; otherwise null. */
  external_user_id: string | null
  /** What the user allows this app. */
  permissions: {
    /** The user lets the app vibe the ring. */
    vibes: boolean
    /** The user's gestures are forwarded to the app (gesture forwarding). */
    gestures: boolean
  }
  /** The user muted the app: its vibes are refused as `not_enabled`. */
  muted: boolean
  /** The app holds one of the ring's priority slots; only a preferred_notification app needs one to vibe. */
  priority_slot: boolean
}

/** How one delivery attempt ended. */
export type AttemptOutcome = 'ok' | 'http_error' | 'timeout' | 'network_error'

/** One try at delivering a webhook. */
export interface Attempt {
  /** 1 for the first try, then one more for each retry. */
  attempt: number
  /** ISO 8601, when the try ended. */
  at: string
  /** Answered 2xx (`ok`), answered otherwise, took longer than the acknowledgement limit, or never connected. */
  outcome: AttemptOutcome
  /** The HTTP status, when there was an answer. */
  status: number | null
  /** From sending the request to the end of the answer, milliseconds. */
  latency_ms: number
  /** The answer's body, cut at 4096 characters, when there was one. */
  reply: string | null
  /** What went wrong on the way (e.g. `connect ECONNREFUSED …`), when it did. */
  error: string | null
  /** The scaled wait before the next try, or null when this was the last. */
  next_retry_in_ms: number | null
  /** The fault injected into this try, when one was (a `duplicate` or `burst` copy is a try of its own). */
  fault?: FaultName
  /**
   * For an answer other than 2xx: what it means and the likely fix (the receiver's error code when it
   * has one), or that a 401 came right after a secret regeneration.
   */
  note?: string
}

/** Where a delivery stands: waiting for its first try, between retries, or settled one of three ways. */
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'skipped'

/** One webhook and all its attempts. */
export interface Delivery {
  /** `dlv_<n>`. */
  id: string
  /** The webhook's event type. */
  event: WebhookEvent['event']
  /** The app it was sent to. */
  app_id: string
  /** The install it concerns. */
  user_app_id: string
  /**
   * The app's webhook URL when the delivery was queued; null when it had none. Each try posts to the
   * URL (and signs with the secret) the app has at that moment.
   */
  url: string | null
  /** The webhook body as signed and sent. */
  payload: WebhookEvent
  /** Pending or retrying until it settles as delivered, failed or skipped. */
  status: DeliveryStatus
  /** Why it was not sent, for a skipped delivery. */
  skipped_reason: 'no_webhook_url' | null
  /** The retry schedule, already multiplied by `time_scale`. */
  retry_delays_ms: number[]
  /** Every try so far, oldest first. */
  attempts: Attempt[]
  /** ISO 8601, when the next try is due; null once settled. */
  next_attempt_at: string | null
  /** The faults injected into this delivery, oldest first. */
  faults: InjectedFault[]
  /** The delivery this one sends again (`resend`), or null. */
  resend_of: string | null
  /** The captured record whose payload it sends (`POST /_sim/captures`), or null; a resend keeps it. */
  capture_id: string | null
  /** ISO 8601, from the simulator's clock. */
  created_at: string
  /** ISO 8601, when it settled; null before. */
  settled_at: string | null
  /** The vibe a gesture delivery's reply carried, if any. */
  vibe_id: string | null
}

/** What reached a ring, or did not, and why. */
export interface Vibe {
  /** `vib_<n>`. */
  id: string
  /** A trigger through the API, or the reply to a gesture webhook. */
  source: 'trigger' | 'gesture_reply'
  /** The app that sent it. */
  app_id: string
  /** The install it was for. */
  user_app_id: string
  /** The user whose ring it was for. */
  user_id: string
  /** The event id of a delivered trigger; null for a gesture reply or a trigger held back. */
  event_id: string | null
  /** The gesture delivery whose reply carried it; null for a trigger. */
  delivery_id: string | null
  /** Delivered, held back by a barrier (`not_enabled`), or refused by a rule (`rejected`). */
  status: 'delivered' | 'not_enabled' | 'rejected'
  /**
   * Why it was not delivered, e.g. `not_enabled: muted` or `sequence.0.type: Invalid option…`; null when
   * delivered.
   */
  rule: string | null
  /** The steps played; empty for a reply that broke the trigger rules. */
  sequence: VibeStep[]
  /** The text shown with it, if any. */
  message: string | null
  /** The vibe asked for the 5-second Ring UI notification showing `message`. */
  show_ring_ui_notif: boolean
  /** ISO 8601, when it was decided. */
  at: string
}

/** A notification's response config after the service's truncation: at most five options, short labels. */
export type ResponseConfigKept =
  | {
      /** Yes, no or dismiss. */
      type: 'yes_no_dismiss'
    }
  | {
      /** A choice of emoji (or dismiss). */
      type: 'emoji'
      /** The options kept. */
      options: {
        /** The emoji itself, which is what an answer names (`emoji:<e>`). */
        emoji: string
        /** The option's label as kept. */
        label: string
      }[]
    }

/** A trigger that asked the user for an answer. */
export interface Notification {
  /** The trigger's event id, by which the app polls for the answer. */
  event_id: string
  /** The app that asked. */
  app_id: string
  /** The install it asked. */
  user_app_id: string
  /** How the app wants the answer: by webhook, by polling, or held in the trigger's own answer. */
  response_mode: ResponseMode
  /** The choices offered. */
  response_config: ResponseConfigKept
  /** Pending until the user answers. */
  status: 'pending' | 'responded'
  /** The answer (`yes`, `no`, `dismiss` or `emoji:<e>`), once given. */
  response: string | null
  /** ISO 8601, when the user answered. */
  responded_at: string | null
  /** ISO 8601, from the simulator's clock. */
  created_at: string
  /** For await mode: whether the trigger is still waiting, got its answer or timed out; null otherwise. */
  await: 'waiting' | 'responded' | 'timeout' | null
}

/** The simulator's settings as the control API shows them. */
export interface Settings {
  /** Where the simulator listens, e.g. `http://127.0.0.1:4010`. */
  base_url: string
  /** The service API's base URL: `base_url` with `/v1`. */
  api_url: string
  /** What every wait is multiplied by. */
  time_scale: number
  /** The acknowledgement limit of a webhook, before scaling. */
  ack_timeout_ms: number
  /** Delays before each retry, before scaling. */
  retry_delays_ms: number[]
  /** The gesture types a gesture may name. */
  gesture_types: string[]
  /** The `delivery.latency_ms` reported for a vibe sent to a ring. */
  ring_latency_ms: number
  /** The service's rate limits as this simulator enforces them. */
  rate_limits: {
    /** Calls to the service API per key. */
    requests_per_key: {
      /** Calls allowed in one window. */
      limit: number
      /** The window's length. */
      window_ms: number
    }
    /** Vibes per user, across apps. */
    vibes_per_user: {
      /** Vibes allowed in one window. */
      limit: number
      /** The window's length. */
      window_ms: number
    }
  }
}

/** The simulator's whole state, as `GET /_sim/state` answers it. */
export interface Snapshot {
  /** The settings in force. */
  settings: Settings
  /** Every API key. */
  keys: Key[]
  /** Every user. */
  users: User[]
  /** Every app. */
  apps: App[]
  /** Every install. */
  installs: Install[]
}
