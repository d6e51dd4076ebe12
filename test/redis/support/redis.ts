import { randomUUID } from 'node:crypto'
import { Redis, type RedisOptions } from 'ioredis'
import { afterAll, beforeAll } from 'vitest'

/** The Redis every Redis suite shares; CI starts it before the tests. */
export const SHARED_REDIS_PORT = 6379

/**
 * The client options the README recommends: a command waits through at most one failed
 * reconnection before it fails, so nothing piles up while Redis is away.
 */
export const RECOMMENDED: RedisOptions = { maxRetriesPerRequest: 1 }

/**
 * Connects to the Redis on 127.0.0.1:`port`, failing loudly when none answers: these suites
 * prove the store against a real server and are never skipped.
 */
export async function connectRedis(port = SHARED_REDIS_PORT, options: RedisOptions = {}): Promise<Redis> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, ...RECOMMENDED, ...options })
  // Outages are part of some tests: failures surface through commands, not as unhandled events.
  let lastError: Error | undefined
  client.on('error', (error: Error) => {
    lastError = error
  })
  try {
    await client.connect()
    await client.ping()
  } catch (error) {
    client.disconnect()
    const required =
      process.env.RINGHOOK_REQUIRE_SERVICES === '1' ? ' CI requires it (RINGHOOK_REQUIRE_SERVICES=1).' : ''
    throw new Error(
      `No Redis answers on 127.0.0.1:${port} (${(lastError ?? (error as Error)).message}). The Redis suites need a real one and never skip: start it with \`redis-server --port ${port} --save "" --appendonly no\`.${required}`,
    )
  }
  return client
}

/** A key prefix no other test run uses, so suites running in parallel never meet. */
export const uniquePrefix = (label: string): string => `ringhook:test:${label}:${randomUUID()}:`

/** Deletes every key under `prefix`. */
export async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length > 0) await client.del(...keys)
    cursor = next
  } while (cursor !== '0')
}

/**
 * The shared Redis for the tests of one `describe` block, with keys of their own: `key()` names a
 * new one, deleted with the others when the block is done. Call it inside `describe`.
 */
export function sharedRedisWithKeys(label: string): { readonly redis: Redis; key(): string } {
  let client: Redis | undefined
  const keys: string[] = []
  beforeAll(async () => {
    client = await connectRedis()
  })
  afterAll(async () => {
    if (client && keys.length > 0) await client.del(...keys)
    client?.disconnect()
  })
  return {
    get redis() {
      if (!client) throw new Error('sharedRedisWithKeys: used before its beforeAll ran')
      return client
    },
    key() {
      const key = `${uniquePrefix(label)}stream`
      // A capture stream's unauthenticated deliveries go to a stream beside it (redisCaptureSink).
      keys.push(key, `${key}:unauthenticated`)
      return key
    },
  }
}
