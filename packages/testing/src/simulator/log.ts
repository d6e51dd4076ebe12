import type { App, Attempt, Delivery, DeliveryStatus, Install, Key, Notification, User, Vibe } from './model.js'

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

/** A key without its token, an app without its secret: what log entries may show. */
export type PublicKey = Omit<Key, 'token'>
export type PublicApp = Omit<App, 'secret'>

interface Stamp {
  /** Increases by one per entry; the SSE id. */
  seq: number
  at: string
}

export type StateEntry = Stamp & {
  type: 'state'
  change: StateChange
  id: string | null
  object: PublicKey | User | PublicApp | Install | null
}

export type RequestEntry = Stamp & {
  type: 'request'
  request_id: string
  method: string
  path: string
  status: number
  error_code: string | null
  key_id: string | null
  latency_ms: number
}

export type GestureEntry = Stamp & {
  type: 'gesture'
  user_app_id: string
  app_id: string
  gesture_type: string
  forwarded: boolean
  delivery_id: string | null
}

interface DeliveryRef {
  delivery_id: string
  event: Delivery['event']
}

export type DeliveryQueuedEntry = Stamp &
  DeliveryRef & { type: 'delivery.queued'; app_id: string; user_app_id: string; url: string | null }
export type DeliveryAttemptEntry = Stamp & DeliveryRef & Attempt & { type: 'delivery.attempt' }
export type DeliverySettledEntry = Stamp &
  DeliveryRef & { type: 'delivery.settled'; status: DeliveryStatus; attempts: number }
export type VibeEntry = Stamp & Vibe & { type: 'vibe' }
export type NotificationEntry = Stamp & Notification & { type: 'notification.created' | 'notification.answered' }
export type NotificationTimeoutEntry = Stamp & { type: 'notification.timeout'; event_id: string }

/** The entries that follow one delivery. */
export type DeliveryEntry = DeliveryQueuedEntry | DeliveryAttemptEntry | DeliverySettledEntry

/** Every entry of the simulator's log and event stream, discriminated on `type`. */
export type LogEntry =
  | StateEntry
  | RequestEntry
  | GestureEntry
  | DeliveryEntry
  | VibeEntry
  | NotificationEntry
  | NotificationTimeoutEntry

export type LogEntryType = LogEntry['type']

/** An entry before the log stamps it. */
export type NewEntry = LogEntry extends infer E ? (E extends LogEntry ? Omit<E, 'seq' | 'at'> : never) : never

export interface LogQuery {
  /** Only entries with a greater seq. */
  since?: number
  /** Only entries of this type. */
  type?: string
  /** At most this many (the newest). */
  limit?: number
}

export interface LogView {
  /** The seq of the newest entry, filtered or not: subscribe to /_sim/events?since=<last_seq> from here. */
  last_seq: number
  entries: LogEntry[]
  deliveries: Delivery[]
  vibes: Vibe[]
  notifications: Notification[]
}

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
