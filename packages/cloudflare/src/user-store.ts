import type { Stamp, StateCounts, StoreResult, UserStatus, UserStore } from '@ringhook/users/store'
import type { ObjectNamespace } from './bindings.js'
import { type Caller, call, caller } from './call.js'
import { shardCount, shardOf } from './shards.js'

/** Which objects keep the users' states, how many, and how long the store waits for one. */
export interface DurableUserStoreOptions {
  /** The Durable Object binding of {@link RinghookObject} (`env.RINGHOOK`). */
  namespace: ObjectNamespace
  /**
   * How many objects the users are spread over, each user to one by the hash of its id. Default 16.
   * Fixed for an app's life: changing it moves users to objects that never saw them.
   */
  shards?: number
  /** Put before every object's name; one per app. Default `'ringhook:users:'`. */
  prefix?: string
  /** Longest wait for one object. Default 2000 ms. */
  timeoutMs?: number
}

/** What the users' store names its objects after unless told otherwise. */
export const DEFAULT_USERS_PREFIX = 'ringhook:users:'

/**
 * Users' states on Durable Objects, for `createUserStates({ store })` on Workers. A user's events
 * always meet in one object (by the hash of its id), where each is one compare-and-set by the
 * ordering rule (`decide`), run one at a time: isolates applying one user's events in any order
 * agree, as on Redis. Uninstalled users are kept, so their late events stay stale. `count()` asks
 * every shard; `pages()` walks them one after the other.
 *
 * @example
 * import { createUserStates } from '@ringhook/users'
 * declare const env: { RINGHOOK: ObjectNamespace } // the Worker's bindings
 * const users = createUserStates({ store: durableUserStore({ namespace: env.RINGHOOK }) })
 */
export function durableUserStore(options: DurableUserStoreOptions): UserStore {
  const to: Caller = caller('users', options, 2_000, 'durableUserStore')
  const shards = shardCount(options.shards, 'durableUserStore')
  const prefix = options.prefix ?? DEFAULT_USERS_PREFIX
  const object = (shard: number) => `${prefix}${shard}`
  const objectOf = (userAppId: string) => object(shardOf(userAppId, shards))

  return {
    apply: (userAppId, seen, marginMs) =>
      call<StoreResult>(to, objectOf(userAppId), 'apply', [userAppId, seen, marginMs]),
    async get(userAppId) {
      return (await call<Stamp | null>(to, objectOf(userAppId), 'get', [userAppId])) ?? undefined
    },
    async *pages(status: UserStatus, pageSize: number) {
      for (let shard = 0; shard < shards; shard++) {
        let after: string | null = null
        for (;;) {
          const page: Array<[string, Stamp]> = await call(to, object(shard), 'page', [status, after, pageSize])
          if (page.length === 0) break
          yield page
          after = page[page.length - 1]?.[0] ?? null
          if (page.length < pageSize) break
        }
      }
    },
    async count(): Promise<StateCounts> {
      const all = await Promise.all(
        Array.from({ length: shards }, (_, shard) => call<StateCounts>(to, object(shard), 'count', [])),
      )
      const total: StateCounts = { active: 0, passive: 0, inactive: 0 }
      for (const counts of all)
        for (const state of ['active', 'passive', 'inactive'] as const) total[state] += counts[state]
      return total
    },
  }
}
