// The examples keep their users' states: examples/node-http (memory) and examples/postgres (in the
// inbox's transaction) answer GET /users with the admin token, equal to the service's once it is
// idle, and load them from the API after a restart.
import { describe, expect, it } from 'vitest'
import { cleanUp, listeningPort, startExample, stop, waitFor } from '../examples/harness.js'
import { assertBuilt } from '../runtimes/built.js'
import { SECRET, startService } from './support/service.js'
import { walkUsers } from './support/walk.js'

assertBuilt('core', 'node', 'client', 'users', 'capture', 'postgres')

const ADMIN_TOKEN = 'admin_token_for_the_users_tests_0123456789'

async function usersOf(port: number, token = ADMIN_TOKEN) {
  const response = await fetch(`http://127.0.0.1:${port}/users`, { headers: { authorization: `Bearer ${token}` } })
  return {
    status: response.status,
    body: (await response.json()) as { users?: Array<{ user_app_id: string; state: string }> },
  }
}

describe.each(['node-http', 'postgres'])('examples/%s', (name) => {
  it('answers GET /users with every user’s state, and loads them from the API after a restart', async () => {
    // No same_second here: without ties, states are final once the simulator is idle, with no refresh to wait for.
    const service = await startService({
      rates: { reorder: 0.3, lost_ack: 0.1, duplicate: 0.1, burst: 0.05 },
      seed: 51,
    })
    const env = {
      RING_WEBHOOK_SECRET: SECRET,
      PORT: '0',
      ADMIN_TOKEN,
      RING_API_KEY: service.apiKey,
      RING_API_URL: service.sim.url,
      RING_APP_ID: service.appId,
    }
    let started = startExample(name, env)
    try {
      const port = await listeningPort(started)
      // Loaded before anything is walked: users a previous run left in the example's table are uninstalled.
      await waitFor(started, /Users' states loaded from the API: 0 users/)
      service.deliverTo(`http://127.0.0.1:${port}/webhooks`)
      await walkUsers(service.sim, service.appId, { count: 60, group: 60, steps: 4, seed: 51 })
      const expected = service.sim
        .state()
        .installs.map((install) => ({ user_app_id: install.user_app_id, state: install.state }))
        .sort((a, b) => a.user_app_id.localeCompare(b.user_app_id))
      const listed = (list: Array<{ user_app_id: string; state: string }> = []) =>
        list
          .map(({ user_app_id, state }) => ({ user_app_id, state }))
          .sort((a, b) => a.user_app_id.localeCompare(b.user_app_id))

      const answer = await usersOf(port)
      expect(answer.status).toBe(200)
      expect(listed(answer.body.users)).toEqual(expected)
      expect((await usersOf(port, 'wrong_token_of_the_same_length_0123456789')).status).toBe(401)

      await stop(started)
      started = startExample(name, env)
      const again = await listeningPort(started)
      await waitFor(started, /Users' states loaded from the API: \d+ users/)
      expect(listed((await usersOf(again)).body.users)).toEqual(expected)
    } finally {
      await stop(started).catch(() => {})
      cleanUp(started)
      await service.sim.close()
    }
  }, 60_000)
})
