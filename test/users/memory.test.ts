// 200 users walking random lifecycles through the simulator's bad days (reordered deliveries,
// shared whole-second timestamps, lost acknowledgements, duplicates, bursts) into one receiver that
// keeps their states in memory: once the simulator is idle, the states equal the service's. An app
// applying events as they arrive, fed the same deliveries, does not: the faults bite.
import '@ringhook/testing/vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createUserStates, type StateChange, type UserStates } from '@ringhook/users'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BAD_DAYS, SECRET, type Service, startService } from './support/service.js'
import { walkUsers } from './support/walk.js'

// Enough for every fault of the bad days to bite (asserted below): the rule (states equal the
// service's), not the count, is tested, and the walk costs CPU by the user. The 2,000-user walks into
// three processes are test/users/redis.long.test.ts and postgres.long.test.ts.
const USERS = 200

let service: Service
let server: Server
let users: UserStates
const changes: StateChange[] = []
// What an app that applies each event as it arrives would hold.
const byArrival = new Map<string, string>()

beforeAll(async () => {
  service = await startService(BAD_DAYS)
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger })
  users = createUserStates({ client: service.client(), appId: service.appId, refresh: { share: 0.5 } })
  users.attach(receiver, (change, event) => {
    changes.push(change)
    const state = { 'app.activated': 'active', 'control.passive': 'passive' }[event.event as string]
    if (event.event === 'app.uninstalled') byArrival.delete(event.user_app_id)
    else byArrival.set(event.user_app_id, state ?? 'inactive')
  })
  server = createServer(ringhook(receiver)).listen({ port: 0, host: '127.0.0.1', backlog: 4096 })
  await new Promise((resolve) => server.once('listening', resolve))
  service.deliverTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`)
})

afterAll(async () => {
  users?.close()
  await service?.sim.close()
  server?.closeAllConnections()
  server?.close()
})

describe('states in memory, on the service’s bad days', () => {
  it(`equal the service’s for ${USERS} users once it is idle, and after one refresh`, async () => {
    await walkUsers(service.sim, service.appId, { count: USERS, group: 100, steps: 4, seed: 49 })
    await users.settled()

    const injected = new Set(service.sim.report().faults.map((fault) => fault.fault))
    expect([...injected].sort()).toEqual(['burst', 'duplicate', 'lost_ack', 'reorder', 'same_second'])
    expect(service.sim).toHaveDeliveredEverything()
    // The faults bite: applied by arrival, some users end in the wrong state.
    const wrong = service.sim.state().installs.filter((install) => byArrival.get(install.user_app_id) !== install.state)
    expect(wrong.length).toBeGreaterThan(0)
    expect(changes.some((change) => change.stale)).toBe(true)
    expect(changes.some((change) => change.verdict === 'uncertain')).toBe(true)

    // Webhooks in timestamp order, ties refreshed one user at a time: already right.
    await expect(users).toHaveStatesOf(service.sim, service.appId)
    const refreshed = await users.refresh()
    await users.settled()
    expect(refreshed.changed).toBe(0)
    await expect(users).toHaveStatesOf(service.sim, service.appId)
    const counts = await users.count()
    const installs = service.sim.state().installs
    expect(counts).toEqual({
      active: installs.filter((install) => install.state === 'active').length,
      passive: installs.filter((install) => install.state === 'passive').length,
      inactive: installs.filter((install) => install.state === 'inactive').length,
    })
  }, 120_000)
})
