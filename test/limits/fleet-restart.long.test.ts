// The fleet run of fleet.long.test.ts on a redis-server of this test's own WITHOUT persistence, killed
// and restarted at once mid-run: Redis comes back empty, every count lost, and some instances may
// never see it go. The service's own refusals stay within the documented bound (docs/limits.md of
// @ringhook/client), as for a Redis only stopped: each instance counts its slots of the window
// again in the Redis that came back (the count's epoch), before it decides anything there. At this
// drive's rates (gestures every 5 s) a store without the epoch stayed within the bound too (60 s run:
// 0 429s either way); test/redis/limits-restart.test.ts is the test that tells the two apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RedisServer, startRedisServer } from '../redis/support/redis-server.js'
import { assertBuilt } from '../runtimes/built.js'
import { drive, KEY_LIMIT, RUN_MS } from './support/drive.js'
import { type Fleet, startFleet, tally } from './support/fleet.js'

assertBuilt('core', 'node', 'client', 'redis', 'users')

const SIZE = 3
const USER_LIMIT = 30

let redis: RedisServer
let fleet: Fleet

beforeAll(async () => {
  // No append-only file: a restart comes back with nothing.
  redis = await startRedisServer(['--appendonly', 'no'])
  fleet = await startFleet({ size: SIZE, users: 10, redisUrl: `redis://127.0.0.1:${redis.port}`, logLevel: 'info' })
}, 60_000)
afterAll(async () => {
  await fleet?.close()
  await redis?.close()
}, 30_000)

describe('a fleet of three when Redis restarts empty', () => {
  it('keeps the service’s refusals within the bound', { timeout: RUN_MS + 120_000 }, async () => {
    const from = Date.now()
    const restartAt = RUN_MS / 2
    let restarted = false
    const driven = await drive(fleet, RUN_MS, async (elapsed) => {
      if (restarted || elapsed < restartAt) return
      restarted = true
      await redis.stop()
      await redis.start()
    })
    const seen = tally(fleet, from, from + RUN_MS)
    console.log('fleet restart run', { runMs: RUN_MS, ...seen, broadcasts: driven.statuses })
    expect(restarted).toBe(true)
    expect(driven.unanswered).toBe(0)
    expect(Object.keys(driven.statuses)).toEqual(['202'])
    expect(seen.refused429).toBeLessThanOrEqual(KEY_LIMIT - Math.floor(KEY_LIMIT / SIZE))
    expect(seen.repliesRateLimited).toBeLessThanOrEqual(fleet.users.length * (USER_LIMIT - USER_LIMIT / SIZE))
    expect(seen.triggers).toBeGreaterThan(0)
  })
})
