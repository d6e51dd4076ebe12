import type { InjectedFault } from './faults/kinds.js'
import type { App, Attempt, Delivery, DeliveryStatus, Install, Key, Notification, User, Vibe } from './model.js'

/** @deprecated Use {@link StateEntryKind} (`StateChange` is `@ringhook/users`' name for a user's change); removed in 0.3.0. */
export type StateChange = StateEntryKind

/** What a `state` entry records: which object was created, changed or removed, or that everything was reset. */
export type StateEntryKind =
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

/** A key without its token, an app without its secret: what log entries may show. */
export type PublicKey = Omit<Key, 'token'>
/** See {@link PublicKey}. */
export type PublicApp = Omit<App, 'secret'>

interface Stamp {
  /** Increases by one per entry; the SSE id. */
  seq: number
  /** ISO 8601, from the simulator's clock. */
  at: string
}

/** An object was created, changed or removed, or the simulator was reset. */
export type StateEntry = Stamp & {
  /** Discriminant. */
  type: 'state'
  /** What happened. */
  change: StateEntryKind
  /** The object's id; null for `reset`. */
  id: string | null
  /** The object after the change (as it was, when removed), without secret or token; null for `reset`. */
  object: PublicKey | User | PublicApp | Install | null
}

/** One call to the service API, answered. */
export type RequestEntry = Stamp & {
  /** Discriminant. */
  type: 'request'
  /** The `x-request-id` answered. */
  request_id: string
  /** The HTTP method. */
  method: string
  /** The path as called, without the query. */
  path: string
  /** The status answered. */
  status: number
  /** The error code answered, for an error. */
  error_code: string | null
  /** The API key that authenticated the call; null when none did. */
  key_id: string | null
  /** How long the answer took, milliseconds. */
  latency_ms: number
}

/** A user performed a gesture. */
export type GestureEntry = Stamp & {
  /** Discriminant. */
  type: 'gesture'
  /** The install it was performed in. */
  user_app_id: string
  /** The app it was meant for. */
  app_id: string
  /** Which gesture. */
  gesture_type: string
  /** False when the user turned gesture forwarding off for the app: no webhook is sent. */
  forwarded: boolean
  /** The gesture webhook's delivery, when one was sent. */
  delivery_id: string | null
}

interface DeliveryRef {
  delivery_id: string
  event: Delivery['event']
}

/** A webhook was queued for an app. */
export type DeliveryQueuedEntry = Stamp &
  DeliveryRef & {
    /** Discriminant. */
    type: 'delivery.queued'
    /** The app it goes to. */
    app_id: string
    /** The install it concerns. */
    user_app_id: string
    /** The app's webhook URL; null when it has none (the delivery is then skipped). */
    url: string | null
  }
/** One try at a delivery ended; every {@link Attempt} field. */
export type DeliveryAttemptEntry = Stamp &
  DeliveryRef &
  Attempt & {
    /** Discriminant. */
    type: 'delivery.attempt'
  }
/** A delivery settled: delivered, failed after its retries, or skipped. */
export type DeliverySettledEntry = Stamp &
  DeliveryRef & {
    /** Discriminant. */
    type: 'delivery.settled'
    /** How it settled. */
    status: DeliveryStatus
    /** How many tries it took. */
    attempts: number
  }
/** A vibe reached a ring or was held back; every {@link Vibe} field. */
export type VibeEntry = Stamp &
  Vibe & {
    /** Discriminant. */
    type: 'vibe'
  }
/** A notification was created or answered; every {@link Notification} field, as it stands after. */
export type NotificationEntry = Stamp &
  Notification & {
    /** Discriminant: created by a trigger, or answered by the user. */
    type: 'notification.created' | 'notification.answered'
  }
/** An await-mode trigger stopped waiting; the notification stays answerable. */
export type NotificationTimeoutEntry = Stamp & {
  /** Discriminant. */
  type: 'notification.timeout'
  /** The notification's event id. */
  event_id: string
}

/** The simulator injected a fault into a delivery (see `FAULT_NAMES`); every {@link InjectedFault} field. */
export type FaultEntry = Stamp &
  DeliveryRef &
  InjectedFault & {
    /** Discriminant. */
    type: 'fault'
  }

/** The entries that follow one delivery. */
export type DeliveryEntry = DeliveryQueuedEntry | DeliveryAttemptEntry | DeliverySettledEntry | FaultEntry

/** Every entry of the simulator's log and event stream, discriminated on `type`. */
export type LogEntry =
  | StateEntry
  | RequestEntry
  | GestureEntry
  | DeliveryEntry
  | VibeEntry
  | NotificationEntry
  | NotificationTimeoutEntry

/** The `type` of each kind of entry, e.g. `delivery.attempt`. */
export type LogEntryType = LogEntry['type']

/** An entry before the log stamps it. */
export type NewEntry = LogEntry extends infer E ? (E extends LogEntry ? Omit<E, 'seq' | 'at'> : never) : never

/** Which entries to read (`GET /_sim/log`, `sim.log.view()`). */
export interface LogQuery {
  /** Only entries with a greater seq. */
  since?: number
  /** Only entries of this type. */
  type?: string
  /** At most this many (the newest). */
  limit?: number
}

/** The log and what it has aggregated, as `GET /_sim/log` answers it. Only `entries` is filtered by the query. */
export interface LogView {
  /** The seq of the newest entry, filtered or not: subscribe to /_sim/events?since=<last_seq> from here. */
  last_seq: number
  /** The entries the query selected, oldest first. */
  entries: LogEntry[]
  /** Every delivery kept, with its attempts. */
  deliveries: Delivery[]
  /** Every vibe kept. */
  vibes: Vibe[]
  /** Every notification. */
  notifications: Notification[]
}

/** Called with each entry as it is appended. */
export type EntryListener = (entry: LogEntry) => void

/** The append-only log: bounded, stamped, and observable. */
export class SimLog {
  readonly #entries: LogEntry[] = []
  readonly #listeners = new Set<EntryListener>()
  #seq = 0

  constructor(
    private readonly stamp: () => string,
    private readonly limit: number,
  ) {}

  append(entry: NewEntry): LogEntry {
    const stamped = { seq: ++this.#seq, at: this.stamp(), ...entry } as LogEntry
    this.#entries.push(stamped)
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit)
    for (const listener of this.#listeners) {
      try {
        listener(stamped)
      } catch {
        // A listener's bug must not break the simulator's own work.
      }
    }
    return stamped
  }

  /** Entries after `seq` (all when omitted), optionally of one type, at most the last `limit`. */
  entries(query: LogQuery = {}): LogEntry[] {
    const found = this.#entries.filter(
      (entry) => entry.seq > (query.since ?? 0) && (query.type === undefined || entry.type === query.type),
    )
    return query.limit === undefined ? found : found.slice(-query.limit)
  }

  /** The seq of the newest entry (0 when empty). */
  get lastSeq(): number {
    return this.#seq
  }

  subscribe(listener: EntryListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  clear(): void {
    this.#entries.length = 0
  }
}
