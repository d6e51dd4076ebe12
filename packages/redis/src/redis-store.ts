import { randomUUID } from 'node:crypto'
import { RinghookConfigError } from '@ringhook/core'
import type { ClaimResult, DedupStore, StoredReply } from '@ringhook/core/store'
import { isScriptClient, type RedisScriptClient, runScript } from './client.js'
import { RedisStoreError } from './errors.js'
import { CLAIM, COMPLETE, HOLD, RELEASE, type RedisScript } from './scripts.js'
import { withTimeout } from './timeout.js'

/** Which Redis the store uses, under which prefix, and how long it waits. */
export interface RedisStoreOptions {
  /** An ioredis `Redis` or `Cluster`, or a node-redis client wrapped with `fromNodeRedis`. */
  client: RedisScriptClient
  /** Put before every delivery key. Default `'ringhook:dedup:'`. */
  prefix?: string
  /**
   * Longest wait for one Redis command. Past it the operation fails, and the receiver answers
   * 503 (`onStoreError: 'retry'`) so the service retries. Default 1000 ms.
   */
  commandTimeoutMs?: number
}

/** What the store puts before every delivery key unless told otherwise. */
export const DEFAULT_PREFIX = 'ringhook:dedup:'
/** The store's default wait for one Redis command: one second. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000

/** The Redis store: every operation is a round trip, so each answers with a promise. */
export interface RedisStore extends DedupStore {
  claim(key: string, inFlightTtlMs: number): Promise<ClaimResult>
  complete(key: string, token: string, reply: StoredReply, ttlMs: number): Promise<void>
  release(key: string, token: string): Promise<void>
}

/**
 * A dedup store on Redis, shared by every instance of a receiver. Each operation is one atomic
 * Lua script on one key, so of any number of instances claiming a delivery at once, one wins.
 *
 * @example
 * import { Redis } from 'ioredis'
 * const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 })
 * createReceiver({ secret, store: createRedisStore({ client: redis }) })
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const { client, prefix, timeoutMs } = resolve(options)
  const run = (script: RedisScript, key: string, args: string[]) => runScript(client, script, prefix + key, args)

  const release = async (key: string, token: string): Promise<void> => {
    await withTimeout(run(RELEASE, key, [token]), timeoutMs, 'release')
  }

  return {
    async claim(key, inFlightTtlMs): Promise<ClaimResult> {
      const token = randomUUID()
      const pending = run(CLAIM, key, [token, milliseconds(inFlightTtlMs)]).then(
        (reply) => toClaim(reply, token),
        // At maxmemory under `noeviction` Redis refuses the write: no room, and nothing forgotten.
        (error: unknown): ClaimResult => {
          if (isOutOfMemory(error)) return { state: 'full' }
          throw error
        },
      )
      try {
        return await withTimeout(pending, timeoutMs, 'claim')
      } catch (error) {
        // The command may still run once Redis answers again (ioredis queues it while it
        // reconnects). Left alone, that orphan claim would hold the delivery for its whole ttl
        // and turn the service's retries away, so it is released as soon as it shows up.
        pending.then((late) => (late.state === 'claimed' ? release(key, token) : undefined)).catch(() => {})
        throw error
      }
    },
    async complete(key, token, reply: StoredReply, ttlMs) {
      const args = [token, String(reply.status), reply.body, milliseconds(ttlMs)]
      const completed = run(COMPLETE, key, args).catch(async (error: unknown) => {
        if (!isOutOfMemory(error)) throw error
        // No room for the reply: the claim is kept for the whole ttl instead, so that copies are
        // answered 409 rather than handled again; the receiver still reports the failure.
        await run(HOLD, key, [token, milliseconds(ttlMs)])
        throw new RedisStoreError('complete', 'Redis is at maxmemory: the delivery is held, without its reply', {
          cause: error,
        })
      })
      await withTimeout(completed, timeoutMs, 'complete')
    },
    release,
  }
}

function resolve(options: RedisStoreOptions) {
  if (!isScriptClient(options?.client)) {
    throw new RinghookConfigError(
      'createRedisStore needs `client`: an ioredis client (`new Redis(url)`), or a node-redis client wrapped with `fromNodeRedis(client)`.',
    )
  }
  const prefix = options.prefix ?? DEFAULT_PREFIX
  if (typeof prefix !== 'string') throw new RinghookConfigError('createRedisStore: `prefix` must be a string')
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RinghookConfigError(`createRedisStore: commandTimeoutMs must be a positive number, got ${timeoutMs}`)
  }
  return { client: options.client, prefix, timeoutMs }
}

/** Redis' refusal of a write at `maxmemory` (`OOM command not allowed ...`), raw or from inside a script. */
const isOutOfMemory = (error: unknown): boolean => error instanceof Error && /\bOOM\b/.test(error.message)

/** A ttl as Redis' PEXPIRE takes it: a positive whole number of milliseconds. */
const milliseconds = (ms: number): string => String(Math.max(1, Math.ceil(ms)))

/** Reads the claim script's reply, rejecting anything else rather than guessing. */
function toClaim(reply: unknown, token: string): ClaimResult {
  const [state, status, body] = Array.isArray(reply) ? reply : []
  if (state === 'claimed') return { state: 'claimed', token }
  if (state === 'in_flight') return { state: 'in_flight' }
  if (state === 'completed' && typeof body === 'string' && Number.isInteger(Number(status))) {
    return { state: 'completed', reply: { status: Number(status), body } }
  }
  throw new RedisStoreError('claim', `unexpected reply from the claim script: ${JSON.stringify(reply)}`)
}
