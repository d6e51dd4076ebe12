// The fleet's limits through a Redis that restarts EMPTY (no persistence: every count lost), on a
// redis-server of this test's own. Each instance mirrors its own slots of the window; one that finds
// the count's epoch gone counts them again before it decides anything, so the fleet never takes
// more than the limit in a window, whether the instances saw Redis go or not.
import { once } from 'node:events'
import { createRateLimiter, type FleetRateLimiter } from '@ringhook/client'
import { silentLogger } from '@ringhook/core'
import { createRedisLimitStore } from '@ringhook/redis'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from './support/poll.js'
import { RECOMMENDED } from './support/redis.js'
import { type RedisServer, startRedisServer } from './support/redis-server.js'

const KEY = { limit: 20, windowMs: 60_000 }
const USER = { limit: 10, windowMs: 60_000 }

describe('the fleet’s limits when Redis restarts empty', () => {
  let server: RedisServer
  const connections: Redis[] = []

  beforeAll(async () => {
    // No append-only file: a restart comes back with nothing, as a Redis without persistence does.
    server = await startRedisServer(['--appendonly', 'no'])
  })
  afterAll(async () => {
    for (const connection of connections) connection.disconnect()
    await server.close()
  })

  /** One instance of the fleet: its own connection, store and limiter, counting alone at half of each limit. */
  async function instance(prefix: string): Promise<{ limiter: FleetRateLimiter; redis: Redis }> {
    const redis = new Redis({ host: '127.0.0.1', port: server.port, ...RECOMMENDED, enableOfflineQueue: false })
    redis.on('error', () => {})
    connections.push(redis)
    await once(redis, 'ready')
    const store = createRedisLimitStore({ client: redis, prefix, commandTimeoutMs: 300 })
    const limiter = createRateLimiter({
      store,
      fallback: { fleetSize: 2 },
      requestsPerKey: KEY,
      vibesPerUser: USER,
      mode: 'fail',
      marginMs: 0,
      logger: silentLogger,
    })
    return { limiter, redis }
  }

  /** Takes requests on each instance in turn until both are refused; how many each got. */
  async function drain(limiters: FleetRateLimiter[], take: (limiter: FleetRateLimiter) => Promise<boolean>) {
    const got = limiters.map(() => 0)
    for (let open = true; open; ) {
      open = false
      for (const [i, limiter] of limiters.entries())
        if (await take(limiter)) {
          got[i] = (got[i] as number) + 1
          open = true
        }
    }
    return got
  }
  const request = (limiter: FleetRateLimiter) =>
    limiter.acquire().then(
      () => true,
      () => false,
    )
  const vibe = (limiter: FleetRateLimiter) => limiter.takeVibe('app_restart', 'alice')

  it('keeps the key’s and each user’s limit when no instance saw it go', async () => {
    const [a, b] = await Promise.all([instance('restart-unseen:'), instance('restart-unseen:')])
    if (!a || !b) throw new Error('no instances')
    for (let i = 0; i < 7; i++) expect(await request(a.limiter)).toBe(true)
    for (let i = 0; i < 5; i++) expect(await request(b.limiter)).toBe(true)
    for (let i = 0; i < 3; i++) expect(await vibe(a.limiter)).toBe(true)
    for (let i = 0; i < 4; i++) expect(await vibe(b.limiter)).toBe(true)

    await server.stop()
    await server.start()
    // Both connections are back before either asks: neither instance ever counted alone.
    await poll('both instances reconnected', async () =>
      a.redis.status === 'ready' && b.redis.status === 'ready' ? true : undefined,
    )
    const requests = await drain([a.limiter, b.limiter], request)
    const vibes = await drain([a.limiter, b.limiter], vibe)
    // 20 requests and 10 of alice's vibes in the window, whole: 12 and 7 before the restart.
    expect(7 + 5 + requests.reduce((x, y) => x + y)).toBe(KEY.limit)
    expect(3 + 4 + vibes.reduce((x, y) => x + y)).toBe(USER.limit)
  })

  it('exceeds them by no more than the fallback’s bound when the instances counted alone meanwhile', async () => {
    const [a, b] = await Promise.all([instance('restart-seen:'), instance('restart-seen:')])
    if (!a || !b) throw new Error('no instances')
    for (let i = 0; i < 9; i++) expect(await request(a.limiter)).toBe(true)
    for (let i = 0; i < 9; i++) expect(await request(b.limiter)).toBe(true)
    for (let i = 0; i < 4; i++) expect(await vibe(a.limiter)).toBe(true)
    for (let i = 0; i < 4; i++) expect(await vibe(b.limiter)).toBe(true)

    await server.stop()
    // Alone, each counts against half of each limit (10 requests, 5 vibes), from its own slots.
    const alone = await drain([a.limiter, b.limiter], request)
    const aloneVibes = await drain([a.limiter, b.limiter], vibe)
    expect([alone, aloneVibes]).toEqual([
      [1, 1],
      [1, 1],
    ])
    await server.start()
    await poll('both instances reconnected', async () =>
      a.redis.status === 'ready' && b.redis.status === 'ready' ? true : undefined,
    )
    await new Promise((resolve) => setTimeout(resolve, 1100)) // past the fallback's probe interval
    // Redis came back empty. The first instance back may take before the other has counted its
    // slots again: the documented bound, limit - limit / fleetSize, is all the window may exceed by.
    const after = await drain([a.limiter, b.limiter], request)
    const afterVibes = await drain([a.limiter, b.limiter], vibe)
    const requests = 9 + 9 + 2 + after.reduce((x, y) => x + y)
    const vibes = 4 + 4 + 2 + afterVibes.reduce((x, y) => x + y)
    expect(requests - KEY.limit).toBeLessThanOrEqual(KEY.limit - KEY.limit / 2)
    expect(vibes - USER.limit).toBeLessThanOrEqual(USER.limit - USER.limit / 2)
    // Every slot of the window is counted in Redis again: nothing more for anyone.
    expect(await a.redis.zcard('{restart-seen:}key')).toBe(requests)
    expect(await drain([a.limiter, b.limiter], request)).toEqual([0, 0])
  })
})
