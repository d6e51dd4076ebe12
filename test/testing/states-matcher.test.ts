// toHaveStatesOf (@ringhook/testing/vitest) compares the users' states an app keeps with the
// service's installs: it passes only when both hold the same users in the same states, and its
// messages name each user that differs. The service is the simulator; the app, @ringhook/users.
import '@ringhook/testing/vitest'
import { createUserStates, type UserStates } from '@ringhook/users'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Service, startService } from '../users/support/service.js'

let service: Service
let active = ''
let inactive = ''

beforeAll(async () => {
  service = await startService()
  // Two installs of the app on the service: one active, one inactive.
  const installed = async (name: string) => {
    const { install } = await service.sim.install(service.appId, service.sim.users.create({ name }).id)
    return install.user_app_id
  }
  active = await installed('active one')
  inactive = await installed('inactive one')
  await service.sim.activate(active)
})
afterAll(async () => {
  await service?.sim.close()
})

const at = new Date(Date.now() - 60_000).toISOString()

/** An app's states, each user applied from one webhook of its state. */
async function appKeeping(states: Record<string, 'active' | 'inactive'>): Promise<UserStates> {
  const users = createUserStates()
  for (const [userAppId, state] of Object.entries(states))
    await users.apply({
      event: state === 'active' ? 'app.activated' : 'app.deactivated',
      user_app_id: userAppId,
      app_id: service.appId,
      timestamp: at,
      data: {},
    })
  return users
}

describe('toHaveStatesOf', () => {
  it('passes when the app keeps the service’s users in the service’s states', async () => {
    const users = await appKeeping({ [active]: 'active', [inactive]: 'inactive' })
    await expect(users).toHaveStatesOf(service.sim, service.appId)
    await expect(expect(users).not.toHaveStatesOf(service.sim, service.appId)).rejects.toThrow(
      "expected some user's state to differ from the service's, but all 2 agree",
    )
  })

  it('fails for a user the app keeps and the service does not', async () => {
    const users = await appKeeping({ [active]: 'active', [inactive]: 'inactive', 'u-only-in-the-app': 'active' })
    await expect(expect(users).toHaveStatesOf(service.sim, service.appId)).rejects.toThrow(
      "expected every user's state to equal the service's, but 1 of 3 differ:\n" +
        '  - u-only-in-the-app: the app says active, the service has no such install',
    )
    await expect(users).not.toHaveStatesOf(service.sim, service.appId)
  })

  it('fails for a user the service has and the app does not, and for one in another state', async () => {
    const users = await appKeeping({ [active]: 'inactive' })
    await expect(expect(users).toHaveStatesOf(service.sim, service.appId)).rejects.toThrow(
      "expected every user's state to equal the service's, but 2 of 2 differ:\n" +
        `  - ${active}: the service says active, the app inactive\n` +
        `  - ${inactive}: the service says inactive, the app has no state (absent)`,
    )
  })

  it('compares only the given app’s installs, and shows the first 20 differences of many', async () => {
    const other = service.sim.apps.create({ key_id: service.sim.keys.create().id, webhook_url: 'http://127.0.0.1:9/x' })
    await service.sim.install(other.app_id, service.sim.users.create({ name: 'elsewhere' }).id)
    const strays = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`stray-${i}`, 'active' as const]))
    const users = await appKeeping({ [active]: 'active', [inactive]: 'inactive', ...strays })
    const failure = expect(users).toHaveStatesOf(service.sim, service.appId)
    await expect(failure).rejects.toThrow('but 23 of 25 differ:')
    await expect(failure).rejects.toThrow(
      /stray-19: the app says active, the service has no such install\n {2}… and 3 more$/,
    )
    // Without an app id, every app's installs count: the other app's user is missing from these states.
    await expect(
      expect(await appKeeping({ [active]: 'active', [inactive]: 'inactive' })).toHaveStatesOf(service.sim),
    ).rejects.toThrow('the app has no state (absent)')
  })
})
