import { type EventOf, type Handler, type HandlerContext, type Receiver, RinghookConfigError } from '@ringhook/core'
import { memoryUserStore } from './memory-store.js'
import { DEFAULT_MARGIN_MS, orderableAfter, type Verdict } from './order.js'
import { MAX_TIMER_MS, Refresher, type RefreshResult, type UsersClient } from './refresher.js'
import {
  LIFECYCLE_EVENTS,
  type LifecycleEventName,
  type StateCounts,
  stampOfEvent,
  type UserStatus,
  type UserView,
  viewOf,
} from './states.js'
import type { UserStore } from './user-store.js'

/** A lifecycle webhook's event, as a receiver's handler gets it. */
export type LifecycleEvent = EventOf<LifecycleEventName>

/** What one lifecycle event did to its user: what a lifecycle handler learns. */
export interface StateChange {
  /** The user the event is about. */
  userAppId: string
  /** The user's state before the event; `undefined` when nothing was known of the user. */
  before: UserView | undefined
  /** The user's state now: the event's, unless it was stale, a duplicate or uncertain. */
  after: UserView
  /** `applied`, `stale` (older than the state: acknowledged, not applied), `duplicate` or `uncertain`. */
  verdict: Verdict
  /** The event is older than the user's state: it was acknowledged and not applied. */
  stale: boolean
}

/** A handler of lifecycle events that gets the event's {@link StateChange}. */
export type ChangeHandler = (change: StateChange, event: LifecycleEvent, context: HandlerContext) => unknown

/** How {@link createUserStates} keeps and refreshes states. */
export interface UserStatesOptions<Via = never> {
  /** Where states live. Default: this process's memory (`memoryUserStore()`). */
  store?: UserStore<Via>
  /** Reconciles from the API: a `@ringhook/client` client (or anything with its `users.list` and `users.get`). */
  client?: UsersClient
  /** The app whose users are listed; required with `client`. */
  appId?: string
  /** When and how much to refresh from the API (with `client`). */
  refresh?: {
    /** Refresh every user this often (ms), beside the load at `start()`. Default: only at start and when uncertain. */
    everyMs?: number
    /** Share of the key's 100 requests per 60 s refreshes may use, above 0 and at most 1. Default 0.1 (10 a minute). */
    share?: number
    /** More uncertain users waiting than this are refreshed with one list request. Default 5. */
    listAbove?: number
  }
  /** How far apart a webhook's timestamp and a refresh must be to be ordered (ms). Default 1000. */
  marginMs?: number
  /** Failures of background refreshes. Default: logged to the console. */
  onError?: (error: unknown) => void
}

/** Every user's state, kept from lifecycle webhooks in timestamp order and reconciled from the API. */
export interface UserStates<Via = never> {
  /**
   * Applies a lifecycle event by its `timestamp`; the Postgres store takes the delivery's transaction
   * as `via`. Resolves what it did; a user made uncertain is refreshed from the API (with a client).
   * @example
   * const users = createUserStates()
   * receiver.on(LIFECYCLE_EVENTS, async (event) => {
   *   const { before, after, stale } = await users.apply(event)
   * })
   */
  apply(event: LifecycleEvent, via?: Via): Promise<StateChange>
  /**
   * Registers the states' handler for every lifecycle event on the receiver; `onChange` runs after
   * each, with what the event did (`before`, `after`, `stale`).
   * @example
   * createUserStates().attach(receiver, ({ after, stale }) => {
   *   if (!stale) console.log(after.state)
   * })
   */
  attach(receiver: Pick<Receiver, 'on'>, onChange?: ChangeHandler): UserStates<Via>
  /** A receiver's handler for lifecycle events that applies each, then calls `onChange`. */
  handler(onChange?: ChangeHandler): Handler<LifecycleEventName>
  /**
   * One user's state, since when and from where; `uninstalled` users are kept (so their late events
   * stay stale); `undefined` when nothing is known.
   * @example const user = await createUserStates().get(user_app_id) // { state: 'active', since, source: 'webhook', ... }
   */
  get(userAppId: string): Promise<UserView | undefined>
  /**
   * The users in one state, fetched a page at a time.
   * @example
   * for await (const user of createUserStates().inState('active'))
   *   await client.vibes.trigger({ app_id, user_app_id: user.userAppId, vibe: vibe('tap') })
   */
  inState(state: UserStatus, options?: { pageSize?: number }): AsyncIterable<UserView>
  /** How many users are active, passive and inactive. */
  count(): Promise<StateCounts>
  /** Loads every user from the API and starts the schedule (`refresh.everyMs`). Needs `client`. */
  start(): Promise<RefreshResult>
  /** Refreshes every user from the API now. Needs `client`. */
  refresh(): Promise<RefreshResult>
  /** Refreshes one user from the API now. Needs `client`. */
  refreshUser(userAppId: string): Promise<UserView>
  /** Resolves once no uncertain user waits for its refresh. */
  settled(): Promise<void>
  /** Stops the schedule and drops refreshes not yet sent. */
  close(): void
}

/**
 * Keeps each user's state from the lifecycle webhooks, ordered by the events' `timestamp` whatever
 * order the deliveries arrive in, reconciled from the API when a client is given.
 *
 * @example
 * const users = createUserStates({ client, appId: 'app_123', refresh: { everyMs: 10 * 60_000 } })
 * users.attach(receiver)
 * await users.start()
 * for await (const user of users.inState('active')) console.log(user.userAppId)
 */
export function createUserStates<Via = never>(options: UserStatesOptions<Via> = {}): UserStates<Via> {
  const store = options.store ?? (memoryUserStore() as unknown as UserStore<Via>)
  const marginMs = options.marginMs ?? DEFAULT_MARGIN_MS
  const onError = options.onError ?? ((error: unknown) => console.warn('@ringhook/users: refresh failed:', error))
  const refresher = options.client ? refresherOf(store, options, marginMs, onError) : undefined
  const needsClient = (what: string): Refresher => {
    if (!refresher) throw new RinghookConfigError(`@ringhook/users: ${what} needs the \`client\` and \`appId\` options`)
    return refresher
  }

  const apply = async (event: LifecycleEvent, via?: Via): Promise<StateChange> => {
    const seen = stampOfEvent(event.timestamp, event.event)
    // A receiver refuses both; an event handed to apply() directly can still carry one.
    if (!seen)
      throw new RinghookConfigError(
        `@ringhook/users: timestamp "${event.timestamp}" is not a time a state can keep exactly (years 0000 to 6428)`,
      )
    const { verdict, before, after } = await store.apply(event.user_app_id, seen, marginMs, via)
    // A tie waits for a refresh sent late enough to be ordered after both events: past the later end
    // (a whole-second stamp ends a second after its `at`).
    if (verdict === 'uncertain')
      refresher?.queue(event.user_app_id, Math.max(orderableAfter(seen, marginMs), orderableAfter(after, marginMs)))
    const userAppId = event.user_app_id
    return {
      userAppId,
      before: before && viewOf(userAppId, before),
      after: viewOf(userAppId, after),
      verdict,
      stale: verdict === 'stale',
    }
  }

  const handler =
    (onChange?: ChangeHandler): Handler<LifecycleEventName> =>
    async (event, context) => {
      const change = await apply(event)
      await onChange?.(change, event, context)
    }

  const states: UserStates<Via> = {
    apply,
    handler,
    attach: (receiver, onChange) => {
      receiver.on(LIFECYCLE_EVENTS, handler(onChange))
      return states
    },
    get: async (userAppId) => {
      const stamp = await store.get(userAppId)
      return stamp && viewOf(userAppId, stamp)
    },
    async *inState(state, { pageSize = 500 } = {}) {
      for await (const page of store.pages(state, pageSize))
        for (const [userAppId, stamp] of page) yield viewOf(userAppId, stamp)
    },
    count: () => store.count(),
    start: async () => {
      const running = needsClient('start()')
      const loaded = await running.all()
      if (options.refresh?.everyMs !== undefined) running.every(options.refresh.everyMs)
      return loaded
    },
    refresh: () => needsClient('refresh()').all(),
    refreshUser: async (userAppId) => viewOf(userAppId, (await needsClient('refreshUser()').one(userAppId)).after),
    settled: async () => refresher?.idle(),
    close: () => refresher?.close(),
  }
  return states
}

function refresherOf<Via>(
  store: UserStore<Via>,
  options: UserStatesOptions<Via>,
  marginMs: number,
  onError: (error: unknown) => void,
): Refresher {
  const { client, appId } = options
  if (!client || !appId)
    throw new RinghookConfigError('createUserStates: `client` needs `appId`, the app whose users to list')
  const everyMs = options.refresh?.everyMs
  // A Node timer holds 2^31-1 ms at most (24.8 days); a longer interval would fire every millisecond.
  if (everyMs !== undefined && !(everyMs >= 1000 && everyMs <= MAX_TIMER_MS))
    throw new RinghookConfigError(
      `createUserStates: refresh.everyMs must be from 1000 to ${MAX_TIMER_MS} (24.8 days), got ${everyMs}`,
    )
  return new Refresher(store as UserStore<unknown>, {
    client,
    appId,
    share: options.refresh?.share ?? 0.1,
    listAbove: options.refresh?.listAbove ?? 5,
    marginMs,
    onError,
  })
}
