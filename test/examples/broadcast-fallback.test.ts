// examples/broadcast while the users' states cannot be read (their Redis away): a broadcast goes to
// the active users the last complete read found, rather than to nobody. The broadcaster runs on
// real states in Redis, whose connection the test closes, and a client of the simulator.
import { silentLogger } from '@ringhook/core'
import { redisUserStore } from '@ringhook/redis'
import { createUserStates } from '@ringhook/users'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBroadcaster } from '../../examples/broadcast/src/broadcast.js'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'
import { type Service, startService } from '../users/support/service.js'

let service: Service
let redis: Redis
let cleaner: Redis
const prefix = uniquePrefix('broadcast-fallback')
const active: string[] = []

beforeAll(async () => {
  service = await startService()
  ;[redis, cleaner] = await Promise.all([connectRedis(), connectRedis()])
  for (let i = 0; i < 3; i++) {
    const { install } = await service.sim.install(service.appId, service.sim.users.create({ name: `user ${i}` }).id)
    await service.sim.activate(install.user_app_id)
    active.push(install.user_app_id)
  }
})
afterAll(async () => {
  redis?.disconnect()
  if (cleaner) await dropPrefix(cleaner, prefix)
  cleaner?.disconnect()
  await service?.sim.close()
})

/** The trigger vibes the service took with `message`, by user. */
const reached = (message: string) =>
  service.sim.log
    .vibes()
    .filter((vibe) => vibe.source === 'trigger' && vibe.message === message)
    .map((vibe) => vibe.user_app_id)
    .sort()

describe('examples/broadcast while the users’ states cannot be read', () => {
  it('broadcasts to the active users the last complete read found', async () => {
    const states = createUserStates({ store: redisUserStore({ client: redis, prefix }) })
    const at = new Date(Date.now() - 60_000).toISOString()
    for (const user_app_id of active)
      await states.apply({ event: 'app.activated', user_app_id, app_id: service.appId, timestamp: at, data: {} })
    const warnings: Array<{ fields: object; message: string | undefined }> = []
    const logger = {
      ...silentLogger,
      warn: (fields: object, message?: string) => void warnings.push({ fields, message }),
    }
    const broadcaster = createBroadcaster({
      client: service.client(),
      users: states,
      appId: service.appId,
      logger: { ...logger, child: () => logger },
      maxPending: 10,
    })

    broadcaster.start('Before the outage')
    await broadcaster.idle()
    expect(reached('Before the outage')).toEqual([...active].sort())

    // The states' Redis is gone: every read fails at once.
    redis.disconnect()
    await expect(states.count()).rejects.toThrow()
    broadcaster.start('During the outage')
    await broadcaster.idle()

    expect(reached('During the outage')).toEqual([...active].sort())
    expect(broadcaster.stats()).toEqual({ broadcasts: 2, sent: 6, skipped: 0, failed: 0 })
    expect(warnings).toEqual([
      {
        fields: { error: expect.any(String), last_known: 3 },
        message: 'A broadcast could not read the active users: it goes to those the last read found',
      },
    ])
  })
})
