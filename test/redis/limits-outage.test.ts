// The Redis limit store's outage, on a redis-server of this test's own (the shared one on 6379 is
// never stopped): no call hangs, each instance falls back to its share, says so once, and rejoins.
import { once } from 'node:events'
import { createRateLimiter, LocalRateLimitError } from '@ringhook/client'
import type { Logger } from '@ringhook/core'
import { createRedisLimitStore } from '@ringhook/redis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from './support/poll.js'
import { RECOMMENDED } from './support/redis.js'
import { type RedisServer, startRedisServer } from './support/redis-server.js'

/** A logger that keeps the warnings and infos it is given. */
function keepingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: () => {},
    info: (_fields, message) => void lines.push(`info ${message}`),
    warn: (_fields, message) => void lines.push(`warn ${message}`),
    error: (_fields, message) => void lines.push(`error ${message}`),
    child: () => logger,
  }
  return logger
}

describe('the Redis limit store while Redis is down', () => {
  let server: RedisServer
  let redis: Redis

  beforeAll(async () => {
    server = await startRedisServer()
    // No offline queue: a command sent while Redis is away fails at once instead of running late.
    redis = new Redis({ host: '127.0.0.1', port: server.port, ...RECOMMENDED, enableOfflineQueue: false })
    redis.on('error', () => {})
    await once(redis, 'ready')
  })
  afterAll(async () => {
    redis.disconnect()
    await server.close()
  })

  it('falls back to its share without hanging, logs it once, and rejoins with what it took', async () => {
    const lines: string[] = []
    const store = createRedisLimitStore({ client: redis, prefix: 'outage:', commandTimeoutMs: 300 })
    const options = {
      store,
      fallback: { fleetSize: 4 },
      requestsPerKey: { limit: 40, windowMs: 60_000 },
      mode: 'fail' as const,
      marginMs: 0,
      logger: keepingLogger(lines),
    }
    const limiter = createRateLimiter(options)
    const other = createRateLimiter({ ...options, logger: keepingLogger([]) })
    for (let i = 0; i < 4; i++) await limiter.acquire()
    for (let i = 0; i < 20; i++) await other.acquire()

    await server.stop()
    // Share: 10 of 40, 4 of them already taken by this instance in this window.
    const started = Date.now()
    for (let i = 0; i < 6; i++) await limiter.acquire()
    await expect(limiter.acquire()).rejects.toBeInstanceOf(LocalRateLimitError)
    expect(await limiter.takeVibe('app_1', 'alice')).toBe(true)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1)

    await server.start()
    // Back: the 6 slots taken alone are counted with the fleet's 24, so 10 are left.
    await poll(
      'the store rejoined',
      async () =>
        (await limiter.acquire().then(
          () => true,
          () => false,
        )) || undefined,
    )
    if (process.env.DEBUG_LIMITS) console.log('LOG', await redis.zrange('{outage:}key', 0, -1, 'WITHSCORES'))
    let more = 0
    while (
      await other.acquire().then(
        () => true,
        () => false,
      )
    )
      more++
    // 40 - 24 - 6 - 1 = 9; one fewer when the take that found Redis gone was still delivered to it
    // once it came back (a command in flight is counted, never lost: the safe side).
    expect(more).toBeGreaterThanOrEqual(8)
    expect(more).toBeLessThanOrEqual(9)
    expect(lines.filter((line) => line.startsWith('info'))).toHaveLength(1)
  })
})
