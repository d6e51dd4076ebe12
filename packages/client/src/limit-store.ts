/** At most `limit` events in any `windowMs`. */
export interface WindowLimit {
  /** How many. */
  limit: number
  /** The window's length, milliseconds. */
  windowMs: number
}

/** The two limits a decision checks; `false` for one that does not apply (a read has no user). */
export interface LimitRules {
  /** Requests per API key. */
  key: WindowLimit | false
  /** Vibes per user. */
  user: WindowLimit | false
}

/** Which limit: the API key's requests, or one user's vibes. */
export type LimitScope = 'key' | 'user'

/** One decision asked of a store: may this request (or vibe) go now? */
export interface TakeRequest {
  /** Names the request across its tries, so a waiter keeps its place in line. Unique per request. */
  ticket: string
  /**
   * The user (`app_id/user_app_id`, `%` and `/` in the app id written `%25` and `%2F`) for a vibe;
   * undefined for a request that sends none.
   */
  user: string | undefined
  /** The limits to check, widened by the limiter's margin. */
  rules: LimitRules
  /** A wait longer than this is refused without queueing; 0 refuses any wait. */
  maxWaitMs: number
}

/** A store's answer: taken, or how long until a slot may free for this request. */
export type TakeResult = TakenSlot | RefusedSlot

/** The slot was taken and counted. */
export interface TakenSlot {
  /** Always `true`. */
  ok: true
}

/** No slot now. */
export interface RefusedSlot {
  /** Always `false`. */
  ok: false
  /** Which limit is in the way. */
  scope: LimitScope
  /** How long until a slot may free for this request, ms. */
  waitMs: number
}

/**
 * Where a limiter keeps its counts. The memory store counts in this process; a shared store (the
 * Redis one of `@ringhook/redis`) counts for every instance that uses it, which is what keeps a
 * fleet under the service's limits.
 */
export interface LimitStore {
  /** `true` for a store other instances share: the limiter then keeps a local fallback for its outages. */
  readonly shared: boolean
  /** Takes a slot under both rules at once, or says how long to wait. One atomic decision. */
  take(request: TakeRequest): Promise<TakeResult> | TakeResult
  /** Holds every slot of the key (or of `user`) for `ms`: the service answered 429. */
  pause(scope: LimitScope, user: string | undefined, ms: number): Promise<void> | void
  /** How many vibes `user` may still be sent now (the user's rule only). */
  remaining(user: string, rule: WindowLimit): Promise<number> | number
  /** Gives up the place in line of a waiter that stopped waiting (aborted). */
  leave(ticket: string): Promise<void> | void
  /**
   * Counts slots taken while the store was unreachable, `ageMs` ago each, so that the fleet's count is
   * whole again when it returns. Shared stores only.
   */
  restore?(grants: readonly RestoredGrant[], rules: LimitRules): Promise<void>
}

/** A slot taken elsewhere (in a fallback), to be counted by a shared store. */
export interface RestoredGrant {
  /** How long ago it was taken. */
  ageMs: number
  /** The user it counted against, if any. */
  user: string | undefined
  /** Whether it was a request (counted against the key) or only a vibe (a gesture reply). */
  key: boolean
}
