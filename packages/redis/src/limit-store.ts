import { randomUUID } from 'node:crypto'
import type {
  LimitRules,
  LimitScope,
  LimitStore,
  RestoredGrant,
  TakeRequest,
  TakeResult,
  WindowLimit,
} from '@ringhook/client'
import { RinghookConfigError } from '@ringhook/core'
import { isScriptClient, type RedisScriptClient, runScriptOn } from './client.js'
import { LEAVE, PAUSE, REMAINING, RESTORE, TAKE } from './limit-scripts.js'
import type { RedisScript } from './scripts.js'
import { withinMs } from './timeout.js'

/** Which Redis the limits live in, under which prefix, and how long one decision may take. */
export interface RedisLimitStoreOptions {
  /** An ioredis `Redis` or `Cluster`, or a node-redis client wrapped with `fromNodeRedis`. */
  client: RedisScriptClient
  /** One prefix per API key: every instance using it shares that key's limits. Default `'ringhook:limits:'`. */
  prefix?: string
  /** Longest wait for one Redis command; past it the limiter counts alone (its fallback). Default 500 ms. */
  commandTimeoutMs?: number
}

/** What the limit store puts before its keys unless told otherwise. */
export const DEFAULT_LIMITS_PREFIX = 'ringhook:limits:'

/** How long past its expected return a waiter keeps its place in line (a killed instance's lapses). */
const GRACE_MS = 2000

/** Redis failed, answered something unexpected, or did not answer within `commandTimeoutMs`. */
export class RedisLimitStoreError extends Error {
  /** Always `'RedisLimitStoreError'`. */
  override readonly name = 'RedisLimitStoreError'
}

/**
 * A rate-limit store on Redis: every instance of an app whose limiter uses it counts against one
 * key's 100 requests / 60 s and each user's 30 vibes / minute. Each decision is one Lua script, on
 * Redis's clock; waiters for the key are served in the order they arrived, whichever instance they
 * are on.
 *
 * @example
 * import { createClient, createRateLimiter } from '@ringhook/client'
 * import { Redis } from 'ioredis'
 * const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
 * const limiter = createRateLimiter({ store: createRedisLimitStore({ client: redis }), fallback: { fleetSize: 3 } })
 * const client = createClient({ apiKey: process.env.RING_API_KEY!, baseUrl: 'https://api.example.com', rateLimit: limiter })
 */
export function createRedisLimitStore(options: RedisLimitStoreOptions): LimitStore {
  if (!isScriptClient(options?.client))
    throw new RinghookConfigError('createRedisLimitStore needs `client`: an ioredis Redis or Cluster')
  const timeoutMs = options.commandTimeoutMs ?? 500
  if (!(timeoutMs > 0)) throw new RinghookConfigError('commandTimeoutMs must be a positive number')
  const client = options.client
  // One hash tag for all of them: a script's keys must share a Cluster slot.
  const tag = `{${options.prefix ?? DEFAULT_LIMITS_PREFIX}}`
  const keys = {
    key: `${tag}key`,
    line: `${tag}line`,
    deadlines: `${tag}line:deadlines`,
    keyPause: `${tag}pause:key`,
    user: (user: string) => `${tag}user:${user}`,
    userPause: (user: string) => `${tag}pause:user:${user}`,
  }
  const run = (script: RedisScript, scriptKeys: string[], args: string[]) =>
    bounded(runScriptOn(client, script, scriptKeys, args), timeoutMs, script.name)

  return {
    shared: true,
    async take(request: TakeRequest): Promise<TakeResult> {
      const { key, user } = request.rules
      const who = user && request.user !== undefined ? request.user : ''
      const reply = await run(
        TAKE,
        [keys.key, keys.user(who), keys.line, keys.deadlines, keys.keyPause, keys.userPause(who)],
        [
          request.ticket,
          ...ruleArgs(key),
          ...ruleArgs(who === '' ? false : user),
          Number.isFinite(request.maxWaitMs) ? String(Math.max(0, Math.floor(request.maxWaitMs))) : '-1',
          String(GRACE_MS),
        ],
      )
      return toTake(reply)
    },
    async pause(scope: LimitScope, user: string | undefined, ms: number): Promise<void> {
      const name = scope === 'key' || user === undefined ? keys.keyPause : keys.userPause(user)
      await run(PAUSE, [name], [String(Math.ceil(ms))])
    },
    async remaining(user: string, rule: WindowLimit): Promise<number> {
      const left = await run(REMAINING, [keys.user(user), keys.userPause(user)], ruleArgs(rule))
      return Number(left)
    },
    async leave(ticket: string): Promise<void> {
      await run(LEAVE, [keys.line, keys.deadlines], [ticket])
    },
    async restore(grants: readonly RestoredGrant[], rules: LimitRules): Promise<void> {
      const batch = randomUUID()
      const logs = new Map<string, { window: number; args: string[] }>()
      const add = (log: string, rule: WindowLimit, age: number, member: string) => {
        const entry = logs.get(log) ?? { window: rule.windowMs, args: [] }
        entry.args.push(String(age), member)
        logs.set(log, entry)
      }
      grants.forEach((grant, index) => {
        const member = `restored:${batch}:${index}`
        if (grant.key && rules.key) add(keys.key, rules.key, grant.ageMs, member)
        if (grant.user !== undefined && rules.user) add(keys.user(grant.user), rules.user, grant.ageMs, member)
      })
      for (const [log, { window, args }] of logs) await run(RESTORE, [log], [String(window), ...args])
    },
  }
}

const ruleArgs = (rule: WindowLimit | false): [string, string] =>
  rule ? [String(rule.limit), String(rule.windowMs)] : ['0', '0']

function toTake(reply: unknown): TakeResult {
  if (Array.isArray(reply) && reply[0] === 1) return { ok: true }
  if (Array.isArray(reply) && reply[0] === 0 && (reply[1] === 'key' || reply[1] === 'user')) {
    return { ok: false, scope: reply[1], waitMs: Math.max(1, Math.ceil(Number(reply[2]))) }
  }
  throw new RedisLimitStoreError(`Redis limit store: unexpected reply ${JSON.stringify(reply)}`)
}

/** The command's answer, or a failure once `ms` have passed: a limiter never hangs on Redis. */
const bounded = <T>(work: Promise<T>, ms: number, name: string): Promise<T> =>
  withinMs(work, ms, () => new RedisLimitStoreError(`Redis limit store, ${name}: no answer within ${ms} ms`))
