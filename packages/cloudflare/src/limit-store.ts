import type { LimitRules, LimitStore, RestoredGrant, TakeResult, WindowLimit } from '@ringhook/client/store'
import type { ObjectNamespace } from './bindings.js'
import { type Caller, call, caller } from './call.js'

/** Which object keeps an API key's limits, and how long one decision may take. */
export interface DurableLimitStoreOptions {
  /** The Durable Object binding of {@link RinghookObject} (`env.RINGHOOK`). */
  namespace: ObjectNamespace
  /** The object's name: one per API key, and every isolate using that key shares it. Default `'ringhook:limits'`. */
  name?: string
  /** Longest wait for the object; past it the limiter counts alone (its fallback). Default 500 ms. */
  timeoutMs?: number
}

/** The limit store's object name unless told otherwise. */
export const DEFAULT_LIMITS_NAME = 'ringhook:limits'

/** How long past its expected return a waiter keeps its place in line (as on Redis). */
const GRACE_MS = 2000

const rule = (limit: WindowLimit | false) =>
  limit ? { limit: limit.limit, windowMs: limit.windowMs } : { limit: 0, windowMs: 0 }

/**
 * A rate-limit store on one Durable Object per API key: every isolate of a Worker whose limiter uses
 * it counts against the key's requests and each user's vibes, as with the Redis store; each decision
 * is one transaction in the object, on its clock, and waiters are served in the order they arrived.
 * A key's limit (100 requests a minute) is far below what one object serves.
 *
 * @example
 * import { createRateLimiter } from '@ringhook/client'
 * declare const env: { RINGHOOK: ObjectNamespace } // the Worker's bindings
 * const limiter = createRateLimiter({ store: createDurableLimitStore({ namespace: env.RINGHOOK }), fallback: { fleetSize: 3 } })
 */
export function createDurableLimitStore(options: DurableLimitStoreOptions): LimitStore {
  const to: Caller = caller('limits', options, 500, 'createDurableLimitStore')
  const name = options.name ?? DEFAULT_LIMITS_NAME
  return {
    shared: true,
    take(request) {
      const { key, user } = request.rules
      const who = user && request.user !== undefined ? request.user : null
      const maxWait = Number.isFinite(request.maxWaitMs) ? Math.max(0, Math.floor(request.maxWaitMs)) : -1
      return call<TakeResult>(to, name, 'take', [
        request.ticket,
        who,
        rule(key),
        rule(who === null ? false : user),
        maxWait,
        GRACE_MS,
      ])
    },
    async pause(scope, user, ms) {
      await call(to, name, 'pause', [scope, user ?? null, ms])
    },
    remaining: (user, limit) => call<number>(to, name, 'remaining', [user, rule(limit)]),
    async leave(ticket) {
      await call(to, name, 'leave', [ticket])
    },
    async restore(grants: readonly RestoredGrant[], rules: LimitRules) {
      const batch = crypto.randomUUID()
      const logs = new Map<string | null, [string | null, number, Array<[number, string]>]>()
      const add = (user: string | null, limit: WindowLimit, ageMs: number, member: string) => {
        const log = logs.get(user) ?? [user, limit.windowMs, []]
        log[2].push([ageMs, member])
        logs.set(user, log)
      }
      grants.forEach((grant, index) => {
        const member = `restored:${batch}:${index}`
        if (grant.key && rules.key) add(null, rules.key, grant.ageMs, member)
        if (grant.user !== undefined && rules.user) add(grant.user, rules.user, grant.ageMs, member)
      })
      if (logs.size > 0) await call(to, name, 'restore', [[...logs.values()]])
    },
  }
}
