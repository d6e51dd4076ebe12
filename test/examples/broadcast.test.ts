// examples/broadcast against the simulator: its admin routes, and a broadcast reaching every active
// user. The fleet's limits under load are tested in test/limits.
import { signWebhook } from '@ringhook/core/signature'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type Fleet, startFleet } from '../limits/support/fleet.js'
import { poll } from '../redis/support/poll.js'
import { assertBuilt } from '../runtimes/built.js'

assertBuilt('core', 'node', 'client', 'redis', 'users')

let fleet: Fleet

beforeAll(async () => {
  fleet = await startFleet({ size: 2, users: 3, redisUrl: 'redis://127.0.0.1:6379' })
}, 60_000)
afterAll(async () => {
  await fleet?.close()
}, 30_000)

const admin = (path: string, init: RequestInit = {}, token = ADMIN_TOKEN) =>
  fetch(`${fleet.balancer.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  })

describe('examples/broadcast', { timeout: 30_000 }, () => {
  it('sends a broadcast to every active user, answered 202', async () => {
    expect(await fleet.broadcast('Lunch is served')).toBe(202)
    const played = await poll('every active user got the broadcast', async () => {
      const vibes = fleet.sim.log
        .vibes()
        .filter((vibe) => vibe.source === 'trigger' && vibe.message === 'Lunch is served')
      return vibes.length === fleet.users.length ? vibes : undefined
    })
    expect(played.map((vibe) => vibe.user_app_id).sort()).toEqual([...fleet.users].sort())
  })

  it('answers gestures with a vibe, counted against the user', async () => {
    const user = fleet.users[0] as string
    const { vibe } = await fleet.sim.gesture(user, 'double_tap', { wait: true })
    expect(vibe).toMatchObject({ source: 'gesture_reply', status: 'delivered', message: 'Got your double_tap' })
  })

  it('answers webhooks at /webhooks with a query string, as the other examples do', async () => {
    const body = JSON.stringify({
      event: 'gesture',
      gesture_type: 'tap',
      user_app_id: fleet.users[2],
      app_id: fleet.appId,
      timestamp: new Date().toISOString(),
      data: {},
    })
    const { headers } = await signWebhook({ secret: fleet.secret, body })
    const response = await fetch(`${fleet.balancer.url}/webhooks?source=load-balancer`, {
      method: 'POST',
      headers,
      body,
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ vibe: { message: 'Got your tap' } })
  })

  it('lists the users’ states', async () => {
    const response = await admin('/users')
    expect(response.status).toBe(200)
    const { users } = (await response.json()) as { users: { user_app_id: string; state: string }[] }
    expect(users.map((user) => user.user_app_id).sort()).toEqual([...fleet.users].sort())
    expect(users.every((user) => user.state === 'active')).toBe(true)
  })

  it('refuses a stranger and a bad message', async () => {
    expect((await admin('/broadcast', { method: 'POST', body: '{"message":"x"}' }, 'wrong')).status).toBe(401)
    expect((await admin('/users', {}, 'wrong')).status).toBe(401)
    expect((await admin('/broadcast', { method: 'POST', body: '{"message":""}' })).status).toBe(400)
    expect(
      (await admin('/broadcast', { method: 'POST', body: JSON.stringify({ message: 'x'.repeat(81) }) })).status,
    ).toBe(400)
    expect((await admin('/broadcast', { method: 'POST', body: 'not json' })).status).toBe(400)
  })

  it('answers GET /users 500 with a log line when its query fails, and keeps serving webhooks', async () => {
    // The active users' set made a string: every read of it fails (WRONGTYPE), as a real query does.
    const redis = new Redis('redis://127.0.0.1:6379')
    const active = `${fleet.prefix}users:state:active`
    const members = await redis.smembers(active)
    expect(members.length).toBeGreaterThan(0)
    try {
      await redis.set(active, 'not a set')
      const failed = await admin('/users')
      expect(failed.status).toBe(500)
      await poll('the failure is logged', async () =>
        fleet.instances.some((instance) =>
          /An admin request failed.*WRONGTYPE|WRONGTYPE.*An admin request failed/.test(instance.output()),
        )
          ? true
          : undefined,
      )
      expect(fleet.instances.every((instance) => instance.child.exitCode === null)).toBe(true)
      const user = fleet.users[1] as string
      const { vibe } = await fleet.sim.gesture(user, 'tap', { wait: true })
      expect(vibe).toMatchObject({ source: 'gesture_reply', status: 'delivered' })
    } finally {
      await redis.del(active)
      await redis.sadd(active, ...members)
      redis.disconnect()
    }
    expect((await admin('/users')).status).toBe(200)
  })
})
