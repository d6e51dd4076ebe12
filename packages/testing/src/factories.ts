import { randomUUID } from 'node:crypto'
import type { EventName, EventOf } from '@ringhook/core'

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

function defaultData(name: EventName): Record<string, unknown> {
  return name === 'notification.responded'
    ? { event_id: `evt_${randomUUID().replaceAll('-', '')}`, response: 'yes' }
    : {}
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
  return {
    event: name,
    ...(name === 'gesture' ? { gesture_type: 'tap' } : {}),
    user_app_id: DEFAULT_USER_APP_ID,
    app_id: DEFAULT_APP_ID,
    timestamp: new Date().toISOString(),
    ...fields,
    data: { ...defaultData(name), ...data },
  } as unknown as EventOf<N>
}

/**
 * One factory per documented event.
 *
 * @example
 * events.gesture({ gesture_type: 'long_press' })
 * events.appInstalled({ external_user_id: 'crm-42' })
 */
export const events = {
  /** A `gesture` event; `tap` unless `gesture_type` says otherwise. */
  gesture: (overrides?: EventOverrides<'gesture'>) => createEvent('gesture', overrides),
  /** An `app.installed` event. */
  appInstalled: (overrides?: EventOverrides<'app.installed'>) => createEvent('app.installed', overrides),
  /** An `app.activated` event. */
  appActivated: (overrides?: EventOverrides<'app.activated'>) => createEvent('app.activated', overrides),
  /** A `control.passive` event. */
  controlPassive: (overrides?: EventOverrides<'control.passive'>) => createEvent('control.passive', overrides),
  /** An `app.deactivated` event. */
  appDeactivated: (overrides?: EventOverrides<'app.deactivated'>) => createEvent('app.deactivated', overrides),
  /** An `app.uninstalled` event. */
  appUninstalled: (overrides?: EventOverrides<'app.uninstalled'>) => createEvent('app.uninstalled', overrides),
  /** A `notification.responded` event: a fresh `data.event_id`, response `yes` unless overridden. */
  notificationResponded: (overrides?: EventOverrides<'notification.responded'>) =>
    createEvent('notification.responded', overrides),
} as const
