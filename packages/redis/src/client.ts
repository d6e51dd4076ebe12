import type { RedisScript } from './scripts.js'

/**
 * The two commands the store needs, in ioredis' shape: an ioredis `Redis` or `Cluster` is one
 * as it is. For node-redis, wrap the client with {@link fromNodeRedis}.
 */
export interface RedisScriptClient {
  /** Runs a script Redis already has, by its SHA-1: the usual path. */
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>
  /** Runs a script by its text, when Redis does not have it yet (`NOSCRIPT`). */
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>
}

/** Keys and arguments in node-redis' shape (v4 and later). */
export interface NodeRedisEvalOptions {
  /** The script's `KEYS`. */
  keys: string[]
  /** The script's `ARGV`. */
  arguments: string[]
}

/** The part of a node-redis client (`createClient()`, v4 and later) that the store uses. */
export interface NodeRedisScriptClient {
  /** Runs a script Redis already has, by its SHA-1. */
  evalSha(sha1: string, options: NodeRedisEvalOptions): Promise<unknown>
  /** Runs a script by its text. */
  eval(script: string, options: NodeRedisEvalOptions): Promise<unknown>
}

/**
 * Adapts a node-redis client to the store.
 *
 * @example
 * import { createClient } from 'redis'
 * const client = await createClient({ url, disableOfflineQueue: true }).connect()
 * createRedisStore({ client: fromNodeRedis(client) })
 */
export function fromNodeRedis(client: NodeRedisScriptClient): RedisScriptClient {
  const options = (numKeys: number, keysAndArgs: string[]): NodeRedisEvalOptions => ({
    keys: keysAndArgs.slice(0, numKeys),
    arguments: keysAndArgs.slice(numKeys),
  })
  return {
    evalsha: (sha1, numKeys, ...keysAndArgs) => client.evalSha(sha1, options(numKeys, keysAndArgs)),
    eval: (source, numKeys, ...keysAndArgs) => client.eval(source, options(numKeys, keysAndArgs)),
  }
}

/** Whether a value has the shape of {@link RedisScriptClient}. */
export const isScriptClient = (value: unknown): value is RedisScriptClient =>
  typeof (value as RedisScriptClient | undefined)?.evalsha === 'function' &&
  typeof (value as RedisScriptClient | undefined)?.eval === 'function'

const isNoScript = (error: unknown): boolean => error instanceof Error && error.message.startsWith('NOSCRIPT')

/**
 * Runs a script by its SHA1, sending the source only when this Redis has not cached it yet
 * (first use, after a restart or a SCRIPT FLUSH).
 */
export function runScript(
  client: RedisScriptClient,
  script: RedisScript,
  key: string,
  args: string[],
): Promise<unknown> {
  return runScriptOn(client, script, [key], args)
}

/** {@link runScript} over several keys (all in one Cluster slot: the caller tags them). */
export async function runScriptOn(
  client: RedisScriptClient,
  script: RedisScript,
  keys: readonly string[],
  args: readonly string[],
): Promise<unknown> {
  try {
    return await client.evalsha(script.sha1, keys.length, ...keys, ...args)
  } catch (error) {
    if (!isNoScript(error)) throw error
    return client.eval(script.source, keys.length, ...keys, ...args)
  }
}
