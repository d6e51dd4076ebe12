// examples/broadcast keeps its users' states in the Redis its instances share: two instances behind
// one URL get the lifecycle webhooks reordered, duplicated and retried, and GET /users (from either)
// equals the service's once it is idle; a broadcast reaches exactly the users it says are active;
// an instance started after the others are gone finds the states in Redis.
import '@ringhook/testing/vitest'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { cleanUp, listeningPort, type Started, startExample, stop, waitFor } from '../examples/harness.js'
import { startBalancer } from '../limits/support/balancer.js'
import { poll } from '../redis/support/poll.js'
import { assertBuilt } from '../runtimes/built.js'
import { SECRET, startService } from './support/service.js'
import { walkUsers } from './support/walk.js'

assertBuilt('core', 'node', 'client', 'redis', 'users', 'testing')

const ADMIN_TOKEN = 'admin_token_for_the_broadcast_users_test_0123'

interface Listed {
  user_app_id: string
  state: string
  since: string
  source: string
}

async function usersOf(base: string): Promise<Listed[]> {
  const response = await fetch(`${base}/users`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { users: Listed[] }).users
}

/** GET /users read as the states matcher reads an app's states. */
const statesOf = (users: Listed[]) => ({
  async *inState(state: string) {
    for (const user of users) if (user.state === state) yield { userAppId: user.user_app_id, state: user.state }
  },
})

describe('examples/broadcast', () => {
  it('keeps every user’s state in Redis whatever order the webhooks arrive in, and vibes the active ones', async () => {
    // No same_second: without ties, states are final once the simulator is idle, with no refresh to wait for.
    const service = await startService({
      rates: { reorder: 0.3, lost_ack: 0.1, duplicate: 0.1, burst: 0.05 },
      seed: 50,
    })
    const balancer = await startBalancer()
    const env = {
      PORT: '0',
      RING_WEBHOOK_SECRET: SECRET,
      RING_API_KEY: service.apiKey,
      RING_API_URL: service.sim.url,
      RING_APP_ID: service.appId,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `ringhook:test:broadcast-users:${randomUUID()}:`,
      ADMIN_TOKEN,
      FLEET_SIZE: '2',
      LOG_LEVEL: 'info',
    }
    const instances: Started[] = []
    try {
      // The first instance loads the states from the API (none yet) before any webhook; the second finds them in Redis.
      instances.push(startExample('broadcast', env))
      const first = await listeningPort(instances[0] as Started)
      await waitFor(instances[0] as Started, /Users' states refreshed from the API/)
      instances.push(startExample('broadcast', env))
      balancer.route([first, await listeningPort(instances[1] as Started)])
      service.deliverTo(`${balancer.url}/webhooks`)

      await walkUsers(service.sim, service.appId, { count: 60, group: 60, steps: 4, seed: 50 })
      await service.sim.idle()
      const injected = new Set(service.sim.report().faults.map((fault) => fault.fault))
      expect([...injected].sort()).toEqual(['burst', 'duplicate', 'lost_ack', 'reorder'])

      // The balancer sends each request to the next instance: both answer the same.
      const listed = await usersOf(balancer.url)
      await expect(statesOf(listed)).toHaveStatesOf(service.sim, service.appId)
      await expect(statesOf(await usersOf(balancer.url))).toHaveStatesOf(service.sim, service.appId)
      expect(new Set(listed.map((user) => user.source))).toEqual(new Set(['webhook']))

      const active = listed.filter((user) => user.state === 'active').map((user) => user.user_app_id)
      expect(active.length).toBeGreaterThan(0)
      const response = await fetch(`${balancer.url}/broadcast`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'To the active ones' }),
      })
      expect(response.status).toBe(202)
      const reached = await poll(
        'every active user got the broadcast',
        async () => {
          const vibes = service.sim.log.vibes().filter((vibe) => vibe.message === 'To the active ones')
          return vibes.length >= active.length ? vibes.map((vibe) => vibe.user_app_id) : undefined
        },
        { timeoutMs: 15_000 },
      )
      expect(reached.sort()).toEqual(active.sort())

      // Every instance gone, a new one answers from the states in Redis.
      for (const instance of instances.splice(0)) {
        await stop(instance)
        cleanUp(instance)
      }
      instances.push(startExample('broadcast', env))
      balancer.route([await listeningPort(instances[0] as Started)])
      await expect(statesOf(await usersOf(balancer.url))).toHaveStatesOf(service.sim, service.appId)
    } finally {
      for (const instance of instances) {
        await stop(instance).catch(() => {})
        cleanUp(instance)
      }
      await balancer.close()
      await service.sim.close()
    }
  }, 90_000)
})
