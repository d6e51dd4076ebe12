import { decide } from './order.js'
import { pack, type Stamp, type StateCounts, statusOf, type UserStatus, unpack } from './states.js'
import type { StoreResult, UserStore } from './user-store.js'

/**
 * States in this process's memory: the default. One number per user in a `Map` (about 120 bytes a
 * user with its id, see the README); lost when the process ends, so it is refreshed from the API at
 * start when a client is given. Use Redis or Postgres when several instances receive webhooks.
 *
 * @example const users = createUserStates({ store: memoryUserStore() })
 */
export function memoryUserStore(): UserStore {
  const stamps = new Map<string, number>()
  const counts: Record<UserStatus, number> = { active: 0, passive: 0, inactive: 0, uninstalled: 0 }

  const apply = (userAppId: string, seen: Stamp, marginMs: number): StoreResult => {
    const packed = stamps.get(userAppId)
    const before = packed === undefined ? undefined : unpack(packed)
    const { verdict, next } = decide(before, seen, marginMs)
    if (before) counts[statusOf(before.cause)]--
    counts[statusOf(next.cause)]++
    stamps.set(userAppId, pack(next))
    return { verdict, before, after: next }
  }

  return {
    apply: async (userAppId, seen, marginMs) => apply(userAppId, seen, marginMs),
    get: async (userAppId) => {
      const packed = stamps.get(userAppId)
      return packed === undefined ? undefined : unpack(packed)
    },
    // A Map's iterator keeps going through entries added or deleted meanwhile, so pages need no copy.
    async *pages(status, pageSize) {
      let page: Array<readonly [string, Stamp]> = []
      for (const [userAppId, packed] of stamps) {
        const stamp = unpack(packed)
        if (statusOf(stamp.cause) !== status) continue
        page.push([userAppId, stamp])
        if (page.length < pageSize) continue
        yield page
        page = []
      }
      if (page.length > 0) yield page
    },
    count: async (): Promise<StateCounts> => ({
      active: counts.active,
      passive: counts.passive,
      inactive: counts.inactive,
    }),
  }
}
