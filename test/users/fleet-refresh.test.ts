// fleetRefresh over redisRefreshTurn: instances sharing states refresh them once per period for the
// whole fleet, whoever takes the turn; a failed refresh gives the turn back for the next instance.
import { RinghookConfigError } from '@ringhook/core'
import { redisRefreshTurn } from '@ringhook/redis'
import { createUserStates, fleetRefresh, type UsersClient } from '@ringhook/users'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'

const prefix = uniquePrefix('users-fleet-refresh')
let redis: Redis

beforeAll(async () => {
  redis = await connectRedis()
})
afterAll(async () => {
  if (redis) await dropPrefix(redis, prefix)
  redis?.disconnect()
})

/** An API listing one inactive user; it counts its list requests, and fails them while `down`. */
function api() {
  const seen = { lists: 0, down: false }
  const client: UsersClient = {
    users: {
      list: async () => {
        seen.lists++
        if (seen.down) throw new Error('the API is down')
        return { users: [{ user_app_id: 'u1', state: 'inactive' as const, installed_at: '2026-11-28T09:00:00Z' }] }
      },
      get: async () => {
        throw new Error('not asked')
      },
    },
  }
  return { client, seen }
}

let keys = 0
const key = () => `${prefix}turn:${keys++}`

describe('redisRefreshTurn', () => {
  it('is held by one instance at a time, and given back only by its holder', async () => {
    const name = key()
    const [a, b] = [redisRefreshTurn({ client: redis, key: name }), redisRefreshTurn({ client: redis, key: name })]
    expect(await a.take(60_000)).toBe(true)
    expect(await b.take(60_000)).toBe(false)
    await b.give()
    expect(await b.take(60_000)).toBe(false)
    await a.give()
    expect(await b.take(60_000)).toBe(true)
    expect(await redis.pttl(name)).toBeGreaterThan(59_000)
  })

  it('refuses a key that is not a non-empty string', () => {
    expect(() => redisRefreshTurn({ client: redis, key: '' })).toThrow(RinghookConfigError)
  })
})

describe('fleetRefresh', () => {
  it('refreshes once for the fleet, by the instance that takes the turn', async () => {
    const { client, seen } = api()
    const name = key()
    const fleet = [0, 1, 2].map(() =>
      fleetRefresh(createUserStates({ client, appId: 'app_1' }), {
        turn: redisRefreshTurn({ client: redis, key: name }),
        everyMs: 600_000,
      }),
    )
    const results = await Promise.all(fleet.map((instance) => instance.refresh()))
    for (const instance of fleet) instance.close()
    expect(results.filter((result) => result !== undefined)).toMatchObject([{ listed: 1, changed: 1 }])
    expect(seen.lists).toBe(1)
    // Held a second less than the period, so the next period's first try finds it free.
    expect(await redis.pttl(name)).toBeGreaterThan(598_000)
    expect(await redis.pttl(name)).toBeLessThanOrEqual(599_000)
  })

  it('gives the turn back when its refresh fails, so another instance refreshes at once', async () => {
    const { client, seen } = api()
    const name = key()
    const [a, b] = [0, 1].map(() =>
      fleetRefresh(createUserStates({ client, appId: 'app_1' }), {
        turn: redisRefreshTurn({ client: redis, key: name }),
        everyMs: 600_000,
      }),
    ) as [ReturnType<typeof fleetRefresh>, ReturnType<typeof fleetRefresh>]
    seen.down = true
    await expect(a.refresh()).rejects.toThrow('the API is down')
    seen.down = false
    expect(await b.refresh()).toMatchObject({ listed: 1, changed: 1 })
    a.close()
    b.close()
  })

  it('refuses a period a timer cannot keep, and a turn without take and give', () => {
    const { client } = api()
    const states = createUserStates({ client, appId: 'app_1' })
    const turn = redisRefreshTurn({ client: redis, key: key() })
    expect(() => fleetRefresh(states, { turn, everyMs: 999 })).toThrow(
      'fleetRefresh: everyMs must be from 1000 to 2147483647 (24.8 days), got 999',
    )
    expect(() => fleetRefresh(states, { turn: {} as typeof turn, everyMs: 1000 })).toThrow(RinghookConfigError)
  })
})
