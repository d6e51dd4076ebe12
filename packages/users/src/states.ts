import type { UserState } from '@ringhook/core/api'
import { type InstallStatus, LIFECYCLE_EVENT_NAMES, type LifecycleEventName, stateAfter } from '@ringhook/core/internal'

export type { UserState }

/** The states a user can be found in: the API's three, or `uninstalled` (kept so late events stay stale). */
export type UserStatus = InstallStatus

/**
 * The lifecycle events, in the spec's order: what a receiver's handler for states registers for.
 * Core's list of events says which they are and the state each leads to.
 */
export const LIFECYCLE_EVENTS: readonly LifecycleEventName[] = LIFECYCLE_EVENT_NAMES

/** One of {@link LIFECYCLE_EVENTS}. */
export type { LifecycleEventName }

/** Where a user's state was last learnt: a lifecycle webhook, or the service's API. */
export type StateSource = 'webhook' | 'api'

/** One user's state as the read API gives it. */
export interface UserView {
  /** The user-app id, as the webhooks carry it. */
  userAppId: string
  /** `active`, `passive`, `inactive`, or `uninstalled` (only `get` shows those). */
  state: UserStatus
  /** The time of what set it: the event's `timestamp`, or when the refresh that found it was sent. */
  since: Date
  /** Whether a webhook or the API set it. */
  source: StateSource
  /**
   * Two events of the same second the spec's order cannot put in order reached this user: the state
   * shown is a guess until the refresh already asked for answers.
   */
  uncertain: boolean
}

/**
 * What set a user's state, as a store keeps it: first the lifecycle events, by their place in
 * {@link LIFECYCLE_EVENTS} (the tie rules need the event, not only the state it leads to; today 0 to
 * 4), then what the API said (today 5 to 8). A stamp holds it in 4 bits.
 */
export type Cause = number

/** The first cause that is the API's answer: every cause below it is a lifecycle event. */
const API = LIFECYCLE_EVENTS.length

/** The causes by name: the lifecycle events' (see {@link causeOfEvent}), then the API's answers. */
export const CAUSE = {
  installed: LIFECYCLE_EVENTS.indexOf('app.installed'),
  activated: LIFECYCLE_EVENTS.indexOf('app.activated'),
  passive: LIFECYCLE_EVENTS.indexOf('control.passive'),
  deactivated: LIFECYCLE_EVENTS.indexOf('app.deactivated'),
  uninstalled: LIFECYCLE_EVENTS.indexOf('app.uninstalled'),
  apiActive: API,
  apiPassive: API + 1,
  apiInactive: API + 2,
  apiAbsent: API + 3,
} as const satisfies Record<string, Cause>

/** The state each cause leads to, by cause. */
export const STATUS_OF: readonly UserStatus[] = [
  ...LIFECYCLE_EVENTS.map(stateAfter),
  'active',
  'passive',
  'inactive',
  'uninstalled',
]
// A stamp packs the cause in 4 bits (see `pack`): 16 causes, so at most 12 lifecycle events.
if (STATUS_OF.length > 16) throw new Error('Too many lifecycle events for a stamp: it holds 16 causes.')

/** Every status, in a fixed order: how counts and pages are laid out. */
export const STATUSES: readonly UserStatus[] = ['active', 'passive', 'inactive', 'uninstalled']

/** The cause of a lifecycle event. */
export const causeOfEvent = (name: LifecycleEventName): Cause => LIFECYCLE_EVENTS.indexOf(name) as Cause

/** The cause of the API's answer for a user: its state, or `undefined` when it does not list the user. */
export const causeOfApi = (state: UserState | undefined): Cause =>
  state === 'active'
    ? CAUSE.apiActive
    : state === 'passive'
      ? CAUSE.apiPassive
      : state === undefined
        ? CAUSE.apiAbsent
        : CAUSE.apiInactive

/** The state a cause leads to. */
export const statusOf = (cause: Cause): UserStatus => STATUS_OF[cause] as UserStatus
/** Whether a cause is a lifecycle event (a webhook), not the API's answer. */
export const isWebhook = (cause: Cause): boolean => cause < API

/** What a store keeps of a user: the cause, its time (ms), and whether it is a guess. */
export interface Stamp {
  /** Milliseconds since the epoch: the event's timestamp, or when the refresh was sent. */
  at: number
  /** The timestamp had whole seconds only: the event happened within the second after `at`. */
  coarse: boolean
  /** What set the state: a lifecycle event or the API's answer (see {@link Cause}). */
  cause: Cause
  /** Set by a tie or a refresh too close to an event: a guess until the next refresh. */
  uncertain: boolean
}

// One number per user: at * 64 + coarse * 32 + cause * 2 + uncertain. Times below 2^47 ms (year 6429)
// stay exact in a double, and a number is what keeps the memory store small (measured in the README).
/** A stamp as one number (what the memory and Redis stores keep). */
export const pack = (stamp: Stamp): number =>
  stamp.at * 64 + (stamp.coarse ? 32 : 0) + stamp.cause * 2 + (stamp.uncertain ? 1 : 0)

/** The stamp of a packed number. */
export const unpack = (packed: number): Stamp => {
  const low = packed % 64
  return { at: (packed - low) / 64, coarse: low >= 32, cause: ((low & 31) >> 1) as Cause, uncertain: (low & 1) === 1 }
}

/**
 * Times a stamp keeps exactly: below 2^47 ms either side of 1970 (year 6429; before year -2489).
 * A receiver refuses timestamps past year 6428 (`invalid_payload`), so only a direct `apply` meets one.
 */
export const EXACT_MS = 2 ** 47

/**
 * The stamp of an event's ISO 8601 `timestamp`, or `undefined` when it is not one, or names a time
 * a stamp cannot keep exactly ({@link EXACT_MS}).
 */
export function stampOfEvent(timestamp: string, name: LifecycleEventName): Stamp | undefined {
  const at = Date.parse(timestamp)
  if (Number.isNaN(at) || Math.abs(at) >= EXACT_MS) return undefined
  // `2026-11-28T10:00:00Z`: the event happened somewhere in that second.
  return { at, coarse: !/T[\d:]+\.\d/.test(timestamp), cause: causeOfEvent(name), uncertain: false }
}

/** The stamp of what the API said of a user, in a response to a request sent at `at`. */
export const stampOfApi = (at: number, state: UserState | undefined): Stamp => ({
  at,
  coarse: false,
  cause: causeOfApi(state),
  uncertain: false,
})

/** The read API's view of a stored stamp. */
export const viewOf = (userAppId: string, stamp: Stamp): UserView => ({
  userAppId,
  state: statusOf(stamp.cause),
  since: new Date(stamp.at),
  source: isWebhook(stamp.cause) ? 'webhook' : 'api',
  uncertain: stamp.uncertain,
})

/** Counts of users per state; uninstalled ones are not counted. */
export type StateCounts = Record<UserState, number>
