import type { Verdict } from './order.js'
import type { Stamp, StateCounts, UserStatus } from './states.js'

/** What a store's compare-and-set did: the verdict, and the user's stamp before and after it. */
export interface StoreResult {
  /** What the observation did. */
  verdict: Verdict
  /** The user's stamp before, or `undefined` for a user never seen. */
  before: Stamp | undefined
  /** The user's stamp now. */
  after: Stamp
}

/**
 * Where states are kept. `apply` is one atomic compare-and-set by the ordering rule (`decide`): of any
 * number of instances applying events of one user at once, each sees the state the last one left.
 * `Via` is what a call may run in: the Postgres store's transaction; nothing for the others.
 */
export interface UserStore<Via = never> {
  /** Applies what was seen of a user by the ordering rule, atomically. */
  apply(userAppId: string, seen: Stamp, marginMs: number, via?: Via): Promise<StoreResult>
  /** The user's stamp, or `undefined` when nothing was ever seen of it. */
  get(userAppId: string): Promise<Stamp | undefined>
  /** The users in one state, a page at a time, never all at once; users that change meanwhile may be missed or seen twice. */
  pages(status: UserStatus, pageSize: number): AsyncIterable<ReadonlyArray<readonly [string, Stamp]>>
  /** How many users are in each state. */
  count(): Promise<StateCounts>
}
