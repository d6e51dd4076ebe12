import '@ringhook/testing/vitest'
import type { ChildProcess } from 'node:child_process'
import { compareStates } from '@ringhook/testing'
import { createUserStates, type UserStore } from '@ringhook/users'
import { expect } from 'vitest'
import { startFront } from './front.js'
import type { InstanceEnv } from './instance.js'
import { BAD_DAYS, startService } from './service.js'
import { walkUsers } from './walk.js'

/**
 * 2,000 users walking random lifecycles on the service's bad days, into three receiver processes
 * behind one URL sharing `store`; halfway, one is killed with SIGKILL while deliveries are in flight,
 * and another started in its place. Once the simulator is idle and one refresh has run, every user's
 * state in the shared store equals the simulator's.
 */
export async function fleetRun(
  where: Pick<InstanceEnv, 'USERS_STORE' | 'USERS_WHERE' | 'DEDUP_WHERE'>,
  store: UserStore<unknown>,
  options: { count?: number; kill?: boolean } = {},
): Promise<void> {
  const service = await startService(BAD_DAYS)
  const front = await startFront()
  try {
    const env: InstanceEnv = { ...where, SIM_URL: service.sim.url, API_KEY: service.apiKey, APP_ID: service.appId }
    const instances: ChildProcess[] = await Promise.all([front.start(env), front.start(env), front.start(env)])
    service.deliverTo(front.url)
    await walkUsers(service.sim, service.appId, {
      count: options.count ?? 2000,
      group: 100,
      steps: 4,
      seed: 50,
      midway: async () => {
        if (options.kill === false) return
        await front.kill(instances[0] as ChildProcess)
        await front.start(env)
      },
    })
    await service.sim.idle()
    const injected = new Set(service.sim.report().faults.map((fault) => fault.fault))
    expect([...injected].sort()).toEqual(['burst', 'duplicate', 'lost_ack', 'reorder', 'same_second'])
    // Deliveries cut by the kill were retried: none lost for good.
    expect(service.sim.log.deliveries().filter((delivery) => delivery.status !== 'delivered')).toEqual([])

    const users = createUserStates({ store, client: service.client(), appId: service.appId })
    // From the webhooks alone, every user is right but those marked uncertain (their refresh may have
    // died with the killed instance). The instances still refresh meanwhile: each one is read again.
    const truth = new Map(service.sim.state().installs.map((install) => [install.user_app_id, install.state]))
    const before = await compareStates(users, service.sim, service.appId)
    const wrong: unknown[] = []
    for (const problem of before.problems) {
      const id = problem.split(':')[0] as string
      const user = await users.get(id)
      if (!user || (!user.uncertain && user.state !== (truth.get(id) ?? 'uninstalled')))
        wrong.push({ id, user, service: truth.get(id) })
    }
    expect(wrong).toEqual([])
    await users.refresh()
    await users.settled()
    await expect(users).toHaveStatesOf(service.sim, service.appId)
    users.close()
  } finally {
    await front.close()
    await service.sim.close()
  }
}
