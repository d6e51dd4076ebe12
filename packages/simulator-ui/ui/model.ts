import type {
  App,
  Attempt,
  Delivery,
  DeliveryEntry,
  GestureEntry,
  Install,
  Key,
  LogEntry,
  LogView,
  Notification,
  RequestEntry,
  Snapshot,
  StateEntry,
  User,
  Vibe,
} from '@ringhook/simulator/control-api'

/**
 * A delivery as the page keeps it: one first seen in the event stream has no payload until the
 * page fetches it, and the page never shows the payload.
 */
export type KnownDelivery = Omit<Delivery, 'payload'>

/** What the page knows: the simulator's state plus what happened, kept current by the event stream. */
export interface Model {
  snapshot: Snapshot | undefined
  deliveries: Record<string, KnownDelivery>
  vibes: Vibe[]
  notifications: Record<string, Notification>
  /** Gestures that sent no webhook (forwarding off), and refused service API calls: log rows of their own. */
  gestures: GestureEntry[]
  refused: RequestEntry[]
  /** The newest vibe that reached each user's ring while the page watched, to play it. */
  felt: Record<string, Vibe>
  lastSeq: number
}

export type Action =
  | { type: 'loaded'; snapshot: Snapshot; log: LogView }
  | { type: 'entry'; entry: LogEntry }
  | { type: 'delivery'; delivery: Delivery }

const KEEP = 300

export const emptyModel: Model = {
  snapshot: undefined,
  deliveries: {},
  vibes: [],
  notifications: {},
  gestures: [],
  refused: [],
  felt: {},
  lastSeq: 0,
}

export function reduce(model: Model, action: Action): Model {
  switch (action.type) {
    case 'loaded':
      return load(action.snapshot, action.log)
    case 'delivery':
      return { ...model, deliveries: { ...model.deliveries, [action.delivery.id]: action.delivery } }
    case 'entry':
      // Replays after a reconnect repeat entries the page already has.
      if (action.entry.seq <= model.lastSeq) return model
      // A reset forgets the log too; the simulator may number the entries after it from 1 again.
      if (action.entry.type === 'state' && action.entry.change === 'reset') return cleared(model)
      return { ...apply(model, action.entry), lastSeq: action.entry.seq }
  }
}

function cleared(model: Model): Model {
  const snapshot = model.snapshot && { ...model.snapshot, keys: [], users: [], apps: [], installs: [] }
  return { ...emptyModel, snapshot }
}

function load(snapshot: Snapshot, log: LogView): Model {
  return {
    snapshot,
    deliveries: Object.fromEntries(log.deliveries.map((delivery) => [delivery.id, delivery])),
    vibes: log.vibes.slice(-KEEP),
    notifications: Object.fromEntries(log.notifications.map((item) => [item.event_id, item])),
    gestures: log.entries.filter(isUnforwarded).slice(-KEEP),
    refused: log.entries.filter(isRefused).slice(-KEEP),
    felt: {},
    lastSeq: log.last_seq,
  }
}

const isUnforwarded = (entry: LogEntry): entry is GestureEntry => entry.type === 'gesture' && !entry.forwarded
const isRefused = (entry: LogEntry): entry is RequestEntry => entry.type === 'request' && entry.error_code !== null

function apply(model: Model, entry: LogEntry): Model {
  switch (entry.type) {
    case 'state':
      return { ...model, snapshot: model.snapshot && applyState(model.snapshot, entry) }
    case 'gesture':
      return isUnforwarded(entry) ? { ...model, gestures: [...model.gestures, entry].slice(-KEEP) } : model
    case 'request':
      return isRefused(entry) ? { ...model, refused: [...model.refused, entry].slice(-KEEP) } : model
    case 'vibe': {
      const { seq: _seq, type: _type, ...vibe } = entry
      const felt = vibe.status === 'delivered' ? { ...model.felt, [vibe.user_id]: vibe } : model.felt
      return { ...model, vibes: [...model.vibes.filter((v) => v.id !== vibe.id), vibe].slice(-KEEP), felt }
    }
    case 'notification.created':
    case 'notification.answered': {
      const { seq: _seq, type: _type, ...notification } = entry
      return { ...model, notifications: { ...model.notifications, [notification.event_id]: notification } }
    }
    case 'notification.timeout': {
      const known = model.notifications[entry.event_id]
      if (!known) return model
      const notification: Notification = { ...known, await: 'timeout' }
      return { ...model, notifications: { ...model.notifications, [entry.event_id]: notification } }
    }
    case 'delivery.queued':
    case 'delivery.attempt':
    case 'delivery.settled':
    case 'fault':
      return { ...model, deliveries: { ...model.deliveries, [entry.delivery_id]: applyDelivery(model, entry) } }
  }
}

/** A quick update from the entry alone; the page then fetches the whole delivery (payload, retry schedule). */
function applyDelivery(model: Model, entry: DeliveryEntry): KnownDelivery {
  const known = model.deliveries[entry.delivery_id]
  switch (entry.type) {
    case 'delivery.queued':
      return known ?? placeholder(entry)
    case 'delivery.attempt': {
      const base = known ?? placeholder({ ...entry, app_id: '', user_app_id: '', url: null })
      // A duplicate or a burst copy is a try of its own with the same number.
      const same = (a: Attempt) => a.attempt === entry.attempt && a.fault === entry.fault
      const attempts = [...base.attempts.filter((a) => !same(a)), pickAttempt(entry)]
      return { ...base, attempts, status: entry.next_retry_in_ms === null ? base.status : 'retrying' }
    }
    case 'delivery.settled': {
      const base = known ?? placeholder({ ...entry, app_id: '', user_app_id: '', url: null })
      return { ...base, status: entry.status, settled_at: entry.at, next_attempt_at: null }
    }
    case 'fault': {
      const base = known ?? placeholder({ ...entry, app_id: '', user_app_id: '', url: null })
      const { fault, attempt, detail } = entry
      return { ...base, faults: [...base.faults, { fault, attempt, detail }] }
    }
  }
}

function placeholder(
  entry: Pick<Delivery, 'app_id' | 'user_app_id' | 'url' | 'event'> & { delivery_id: string; at: string },
): KnownDelivery {
  return {
    id: entry.delivery_id,
    event: entry.event,
    app_id: entry.app_id,
    user_app_id: entry.user_app_id,
    url: entry.url,
    status: 'pending',
    skipped_reason: null,
    retry_delays_ms: [],
    attempts: [],
    next_attempt_at: null,
    faults: [],
    resend_of: null,
    capture_id: null,
    created_at: entry.at,
    settled_at: null,
    vibe_id: null,
  }
}

function pickAttempt(entry: Attempt): Attempt {
  const { attempt, at, outcome, status, latency_ms, reply, error, next_retry_in_ms, fault, note } = entry
  return {
    attempt,
    at,
    outcome,
    status,
    latency_ms,
    reply,
    error,
    next_retry_in_ms,
    ...(fault ? { fault } : {}),
    ...(note ? { note } : {}),
  }
}

function applyState(snapshot: Snapshot, entry: StateEntry): Snapshot {
  const [kind, verb] = entry.change.split('.') as [string, string | undefined]
  if (kind === 'install' && verb === 'removed') {
    return { ...snapshot, installs: snapshot.installs.filter((install) => install.user_app_id !== entry.id) }
  }
  switch (kind) {
    case 'key':
      return { ...snapshot, keys: upsert(snapshot.keys, entry.object as Key, (key) => key.id) }
    case 'user':
      return { ...snapshot, users: upsert(snapshot.users, entry.object as User, (user) => user.id) }
    case 'app':
      return { ...snapshot, apps: upsert(snapshot.apps, entry.object as App, (app) => app.app_id) }
    case 'install':
      return { ...snapshot, installs: upsert(snapshot.installs, entry.object as Install, (i) => i.user_app_id) }
    default:
      return snapshot
  }
}

function upsert<T>(items: T[], item: T, id: (item: T) => string): T[] {
  const index = items.findIndex((known) => id(known) === id(item))
  return index === -1 ? [...items, item] : items.map((known, i) => (i === index ? item : known))
}
