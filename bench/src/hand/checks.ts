/**
 * The checks the service's spec asks of every receiver beyond the signature, written by hand the
 * way a user would from the spec (service-interface.md, sections 2, 4 and 6): the payload's fields
 * have the documented types, and a delivery seen before is acknowledged without handling it again
 * ("receivers deduplicate on event_id"). Shared by every hand-rolled route in the bench, so each
 * baseline does the work ringhook's receiver is required to do, and no more. No imports: the
 * cold-start and bundle apps use it on every runtime.
 */

/** The fields a hand-rolled route reads from a valid payload. */
export interface HandEvent {
  event: string
  user_app_id: string
  app_id: string
  timestamp: string
  gesture_type?: string
  data: { event_id?: string; response?: string }
}

const RESPONSES = new Set(['yes', 'no', 'dismiss'])

type Fields = Record<string, unknown>

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0

/** Whether a parsed body is a payload as the spec documents it (section 2, "Webhook payload"; section 6). */
export function isValidEvent(value: unknown): value is HandEvent {
  if (!isObject(value) || !isText(value.event) || !isText(value.user_app_id) || !isText(value.app_id)) return false
  if (value.external_user_id !== undefined && typeof value.external_user_id !== 'string') return false
  if (typeof value.timestamp !== 'string' || Number.isNaN(Date.parse(value.timestamp))) return false
  const { data } = value
  if (!isObject(data)) return false
  if (value.event === 'gesture') return isText(value.gesture_type)
  if (value.event !== 'notification.responded') return true
  const { response } = data
  return (
    isText(data.event_id) &&
    typeof response === 'string' &&
    (RESPONSES.has(response) || (response.startsWith('emoji:') && response.length > 6))
  )
}

/** What identifies a delivery across the service's retries: `data.event_id`, or the gesture's own fields. */
export const deliveryKey = (event: HandEvent): string =>
  event.event === 'notification.responded'
    ? `${event.app_id}:${event.data.event_id}`
    : `${event.event}:${event.app_id}:${event.user_app_id}:${event.timestamp}:${event.gesture_type ?? ''}`

/**
 * Keys seen within the last `ttlMs`: a Map for the lookup, and the keys in arrival order (one ttl
 * for all, so that is expiry order) to forget the expired ones from the front. Not a walk of the
 * Map from its front: V8 leaves a deleted Map entry as a hole until the table is rebuilt, so that
 * walk would step over every key forgotten since.
 */
export class SeenDeliveries {
  readonly #until = new Map<string, number>()
  #order: string[] = []
  #head = 0
  readonly #ttlMs: number
  readonly #now: () => number

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs
    this.#now = now
  }

  /** True the first time a key is seen within the ttl; remembers it. */
  firstTime(key: string): boolean {
    const now = this.#now()
    this.#forgetExpired(now)
    if (this.#until.has(key)) return false
    this.#until.set(key, now + this.#ttlMs)
    this.#order.push(key)
    return true
  }

  #forgetExpired(now: number): void {
    const order = this.#order
    while (this.#head < order.length) {
      const key = order[this.#head] as string
      if ((this.#until.get(key) as number) > now) break
      this.#until.delete(key)
      this.#head += 1
    }
    // Drop the forgotten front of the list once it is most of it.
    if (this.#head > 1024 && this.#head * 2 > order.length) {
      this.#order = order.slice(this.#head)
      this.#head = 0
    }
  }

  get size(): number {
    return this.#until.size
  }
}
