// The fleet run of fleet.long.test.ts on a redis-server of this test's own, stopped for 20 s in the
// middle: no instance crashes, every broadcast is answered, and the service's 429s stay within the
// fallback's documented bound (docs/limits.md of @ringhook/client): while the instances count
// alone, the fleet may exceed a limit by at most the part of it the others were not using when
// Redis went away — at most `limit - limit / instances` in the windows around the fall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RedisServer, startRedisServer } from '../redis/support/redis-server.js'
import { assertBuilt } from '../runtimes/built.js'
import { drive, KEY_LIMIT, RUN_MS } from './support/drive.js'
import { type Fleet, startFleet, tally } from './support/fleet.js'

assertBuilt('core', 'node', 'client', 'redis', 'users')

const SIZE = 3
const OUTAGE_MS = 20_000
const USER_LIMIT = 30

let redis: RedisServer
let fleet: Fleet

beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet({ size: SIZE, users: 10, redisUrl: `redis://127.0.0.1:${redis.port}`, logLevel: 'info' })
}, 60_000)
afterAll(async () => {
  await fleet?.close()
  await redis?.close()
}, 30_000)

describe('a fleet of three when Redis stops for 20 s', () => {
  it('keeps going on its shares, hangs nothing, and rejoins', { timeout: RUN_MS + 120_000 }, async () => {
    const from = Date.now()
    const stopAt = Math.max(0, RUN_MS / 2 - OUTAGE_MS / 2)
    const outage = { phase: 'before' as 'before' | 'down' | 'back' }
    const driven = await drive(fleet, RUN_MS, async (elapsed) => {
      if (outage.phase === 'before' && elapsed >= stopAt) {
        outage.phase = 'down'
        await redis.stop()
      } else if (outage.phase === 'down' && elapsed >= stopAt + OUTAGE_MS) {
        outage.phase = 'back'
        await redis.start()
      }
    })
    if (outage.phase === 'down') await redis.start()
    const seen = tally(fleet, from, from + RUN_MS)
    console.log('fleet outage run', { runMs: RUN_MS, ...seen, broadcasts: driven.statuses })
    // Nothing crashed (close() checks each exit code) and nothing hung: every broadcast was answered.
    expect(driven.unanswered).toBe(0)
    expect(Object.keys(driven.statuses)).toEqual(['202'])
    const bound = KEY_LIMIT - Math.floor(KEY_LIMIT / SIZE)
    expect(seen.refused429).toBeLessThanOrEqual(bound)
    expect(seen.repliesRateLimited).toBeLessThanOrEqual(fleet.users.length * (USER_LIMIT - USER_LIMIT / SIZE))
    expect(seen.triggers).toBeGreaterThan(0)
    // An instance that asked its limiter while Redis was away said once that it counted alone, and
    // that it rejoined; one whose vibes all waited through the outage had nothing to say.
    const count = (text: string, line: string) => text.split(line).length - 1
    const falls = fleet.instances.map((instance) => count(instance.output(), 'The shared rate-limit store failed'))
    const returns = fleet.instances.map((instance) => count(instance.output(), 'The shared rate-limit store answers'))
    expect(falls.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1)
    expect(returns).toEqual(falls)
  })
})
