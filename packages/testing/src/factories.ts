import { randomUUID } from 'node:crypto'
import type { EventName, EventOf } from '@ringhook/core'
import { EVENT_NAMES } from '@ringhook/core/api'
import { EVENT_NOTES } from '@ringhook/core/internal'

/** The user-app id the factories use unless told otherwise. */
export const DEFAULT_USER_APP_ID = '5b0c2f3e-8d4a-4e1b-9c6f-1a2b3c4d5e6f'
/** The app id the factories use unless told otherwise. */
export const DEFAULT_APP_ID = 'app_test'

/** Only the named fields of a type: zod's loose objects add an index signature that would swallow them. */
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** Fields of one event that a test may override; `data` is merged with the defaults. */
export type EventOverrides<N extends EventName> = Partial<Omit<Known<EventOf<N>>, 'event' | 'data'>> & {
  /** Fields of `data` to set; the rest keep their defaults (a fresh `event_id` and `yes` for a response). */
  data?: Partial<Known<EventOf<N>['data']>>
}

/**
 * The event's own fields, from the sample in core's list of events. `data.event_id` is what a receiver
 * deduplicates on (spec section 4), so an event that has one gets a fresh one at every call.
 */
function ownFields(name: EventName): { data: Record<string, unknown> } & Record<string, unknown> {
  const { data, ...top } = EVENT_NOTES[name].sample as { data: Record<string, unknown> }
  const fresh = 'event_id' in data ? { event_id: `evt_${randomUUID().replaceAll('-', '')}` } : {}
  return { ...top, data: { ...data, ...fresh } }
}

/**
 * Builds a valid webhook payload for any event; overrides are typed per event.
 * The timestamp is now, so each call is a distinct delivery for a receiver's deduplication.
 *
 * @example
 * createEvent('gesture', { gesture_type: 'double_tap', user_app_id })
 * createEvent('notification.responded', { data: { response: 'emoji:👍' } })
 */
export function createEvent<N extends EventName>(name: N, overrides: EventOverrides<N> = {}): EventOf<N> {
  const { data, ...fields } = overrides as { data?: Record<string, unknown> } & Record<string, unknown>
  const { data: defaults, ...own } = ownFields(name)
  return {
    event: name,
    ...own,
    user_app_id: DEFAULT_USER_APP_ID,
    app_id: DEFAULT_APP_ID,
    timestamp: new Date().toISOString(),
    ...fields,
    data: { ...defaults, ...data },
  } as unknown as EventOf<N>
}

/** A factory's name: the event's, in camelCase (`app.installed` → `appInstalled`). */
type FactoryName<N extends string> = N extends `${infer Head}.${infer Tail}`
  ? `${Head}${Capitalize<FactoryName<Tail>>}`
  : N extends `${infer Head}_${infer Tail}`
    ? `${Head}${Capitalize<FactoryName<Tail>>}`
    : N

const factoryName = (name: string): string => name.replace(/[._](.)/g, (_, letter: string) => letter.toUpperCase())

/**
 * One factory for each documented event, named after it in camelCase: `events.gesture`,
 * `events.appInstalled`, `events.notificationResponded`, .... Each is {@link createEvent} for its event:
 * a gesture is a `tap` unless `gesture_type` says otherwise; a `notification.responded` has a fresh
 * `data.event_id` and the response `yes` unless overridden.
 */
export type EventFactories = {
  readonly [N in EventName as FactoryName<N>]: (overrides?: EventOverrides<N>) => EventOf<N>
}

/**
 * One factory per documented event, made from core's list of events.
 *
 * @example
 * events.gesture({ gesture_type: 'long_press' })
 * events.appInstalled({ external_user_id: 'crm-42' })
 */
export const events = Object.fromEntries(
  EVENT_NAMES.map((name) => [
    factoryName(name),
    (overrides?: EventOverrides<EventName>) => createEvent(name, overrides),
  ]),
) as EventFactories
