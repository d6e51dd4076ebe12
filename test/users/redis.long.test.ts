// Users' states on Redis, shared by three receiver processes behind one URL, one killed mid-run.
import { redisUserStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'
import { fleetRun } from './support/fleet.js'

const prefix = uniquePrefix('users')
let redis: Redis

beforeAll(async () => {
  redis = await connectRedis()
})
afterAll(async () => {
  if (redis) await dropPrefix(redis, prefix)
  redis?.disconnect()
})

describe('states on Redis', () => {
  it('equal the service’s for 2,000 users, three instances, one SIGKILLed and restarted', async () => {
    const store = redisUserStore({ client: redis, prefix: `${prefix}states:` })
    await fleetRun({ USERS_STORE: 'redis', USERS_WHERE: `${prefix}states:`, DEDUP_WHERE: `${prefix}dedup:` }, store)
  }, 180_000)
})
