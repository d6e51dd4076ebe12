import { randomUUID } from 'node:crypto'
import type {
  LimitRules,
  LimitScope,
  LimitStore,
  RestoredGrant,
  TakeRequest,
  TakeResult,
  WindowLimit,
} from '@ringhook/client/store'
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
    epoch: `${tag}epoch`,
  }
  const run = (script: RedisScript, scriptKeys: string[], args: string[]) =>
    bounded(runScriptOn(client, script, scriptKeys, args), timeoutMs, script.name)

  // This instance's slots of the current windows (a mirror of what it took), and the epoch of the
  // count it last saw: when Redis restarts empty, every instance counts its own slots again.
  const mirror: Mirrored[] = []
  let epoch = ''
  let syncing: Promise<void> | undefined

  const prune = () => {
    const now = Date.now()
    while (mirror.length > 0 && now - (mirror[0] as Mirrored).at >= windowOf(mirror[0] as Mirrored)) mirror.shift()
  }

  /** Counts `entries` in Redis under epoch `under`; resolves another epoch found instead. */
  const count = async (entries: readonly Mirrored[], under: string): Promise<string | undefined> => {
    const now = Date.now()
    const batch = randomUUID()
    const logs = new Map<string, { window: number; args: string[] }>()
    const add = (log: string, window: number, age: number, member: string) => {
      const entry = logs.get(log) ?? { window, args: [] }
      entry.args.push(String(Math.max(0, age)), member)
      logs.set(log, entry)
    }
    entries.forEach((entry, index) => {
      const member = `restored:${batch}:${index}`
      if (entry.keyWindowMs > 0) add(keys.key, entry.keyWindowMs, now - entry.at, member)
      if (entry.user !== undefined && entry.userWindowMs > 0)
        add(keys.user(entry.user), entry.userWindowMs, now - entry.at, member)
    })
    for (const [log, { window, args }] of logs) {
      const reply = await run(RESTORE, [log, keys.epoch], [String(window), under, randomUUID(), ...args])
      const other = otherEpoch(reply)
      if (other !== undefined) return other
    }
    return undefined
  }

  /** Redis holds another epoch than this instance's: counts this instance's slots again under it, once. */
  const sync = (found: string): Promise<void> => {
    if (syncing) return syncing
    if (found === epoch) return Promise.resolve()
    syncing = (async () => {
      // The epoch is taken as this instance's only once its slots are counted under it: a restore
      // cut short (Redis away again) is done again at the next decision.
      let next: string | undefined = found
      for (let tries = 0; next !== undefined; tries++) {
        if (tries === 3)
          throw new RedisLimitStoreError('Redis limit store: the count was lost again while restoring it')
        const candidate: string = next
        prune()
        next = await count(mirror, candidate)
        if (next === undefined) epoch = candidate
      }
    })().finally(() => {
      syncing = undefined
    })
    return syncing
  }

  return {
    shared: true,
    async take(request: TakeRequest): Promise<TakeResult> {
      const { key, user } = request.rules
      const who = user && request.user !== undefined ? request.user : ''
      for (let tries = 0; ; tries++) {
        if (syncing) await syncing
        const reply = await run(
          TAKE,
          [keys.key, keys.user(who), keys.line, keys.deadlines, keys.keyPause, keys.userPause(who), keys.epoch],
          [
            request.ticket,
            ...ruleArgs(key),
            ...ruleArgs(who === '' ? false : user),
            Number.isFinite(request.maxWaitMs) ? String(Math.max(0, Math.floor(request.maxWaitMs))) : '-1',
            String(GRACE_MS),
            // Holding no slot of the window, this instance has nothing to count again: any epoch will do.
            mirror.length === 0 ? '' : epoch,
            randomUUID(),
          ],
        )
        const other = otherEpoch(reply)
        if (other !== undefined) {
          if (tries === 2) throw new RedisLimitStoreError('Redis limit store: the count keeps being lost')
          await sync(other)
          continue
        }
        const found = epochOf(reply)
        if (epoch === '' || mirror.length === 0) epoch = found
        // Sent with nothing to count again, answered in another epoch than the slots taken meanwhile.
        else if (found !== epoch) await sync(found)
        const result = toTake(reply)
        if (result.ok) {
          mirror.push({
            at: Date.now(),
            user: who === '' ? undefined : who,
            keyWindowMs: key ? key.windowMs : 0,
            userWindowMs: who !== '' && user ? user.windowMs : 0,
          })
          prune()
        }
        return result
      }
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
      // Slots this instance took alone are its own from now on: mirrored, so a later restart counts them too.
      const now = Date.now()
      const entries = grants.map((grant) => ({
        at: now - grant.ageMs,
        user: grant.user,
        keyWindowMs: grant.key && rules.key ? rules.key.windowMs : 0,
        userWindowMs: grant.user !== undefined && rules.user ? rules.user.windowMs : 0,
      }))
      mirror.push(...entries)
      if (syncing) await syncing
      const other = await count(entries, epoch)
      // Redis lost the window meanwhile (restarted empty): all of this instance's slots are counted again.
      if (other !== undefined) await sync(other)
    },
  }
}

/** One slot this instance took, as long as a window it counts in lasts. */
interface Mirrored {
  /** When, on this instance's clock. */
  at: number
  /** The user it counted against, if any. */
  user: string | undefined
  /** The key's window, or 0 when it did not count against the key. */
  keyWindowMs: number
  /** The user's window, or 0. */
  userWindowMs: number
}

const windowOf = (entry: Mirrored) => Math.max(entry.keyWindowMs, entry.userWindowMs)

/** The epoch a decision was taken in: the last element of its reply. */
function epochOf(reply: unknown): string {
  return Array.isArray(reply) ? String(reply[reply.length - 1]) : ''
}

/** The epoch a script found instead of the one it was sent, if it did (its reply `{2, epoch}`). */
function otherEpoch(reply: unknown): string | undefined {
  return Array.isArray(reply) && reply[0] === 2 ? String(reply[1]) : undefined
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
