// examples/broadcast as a fleet: N instances (separate processes, started as its README says) behind
// one URL, sharing a Redis, driven by the simulator of the service, which enforces the limits itself.
import { randomUUID } from 'node:crypto'
import { createSimulator, type Simulator } from '@ringhook/simulator'
import { cleanUp, listeningPort, type Started, startExample, stop } from '../../examples/harness.js'
import { type Balancer, startBalancer } from './balancer.js'

export const ADMIN_TOKEN = 'admin_token_for_the_fleet_tests_0123456789'

export interface Fleet {
  readonly sim: Simulator
  readonly balancer: Balancer
  readonly instances: Started[]
  readonly appId: string
  readonly keyId: string
  /** The app's webhook secret. */
  readonly secret: string
  /** The instances' `REDIS_PREFIX`: every key of theirs starts with it. */
  readonly prefix: string
  /** The users' `user_app_id`s, all active. */
  readonly users: string[]
  /** Starts one broadcast through the balancer; resolves with its status. */
  broadcast(message: string): Promise<number>
  close(): Promise<void>
}

export async function startFleet(options: {
  size: number
  users: number
  redisUrl: string
  logLevel?: string
}): Promise<Fleet> {
  const balancer = await startBalancer()
  const prefix = `ringhook:test:fleet:${randomUUID()}:`
  const sim = await createSimulator({})
  const owner = sim.users.create({ name: 'Developer' })
  const key = sim.keys.create({ user_id: owner.id })
  const app = sim.apps.create({ key_id: key.id, type: 'control', webhook_url: `${balancer.url}/webhooks` })
  const env = {
    PORT: '0',
    RING_WEBHOOK_SECRET: app.secret,
    RING_API_KEY: key.token,
    RING_API_URL: sim.url,
    RING_APP_ID: app.app_id,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN,
    FLEET_SIZE: String(options.size),
    LOG_LEVEL: options.logLevel ?? 'warn',
  }
  const instances = Array.from({ length: options.size }, () => startExample('broadcast', env))
  const ports = await Promise.all(instances.map((instance) => listeningPort(instance)))
  balancer.route(ports)
  const users: string[] = []
  for (let i = 0; i < options.users; i++) {
    const person = sim.users.create({ name: `User ${i}` })
    const { install } = await sim.install(app.app_id, person.id, { activate: true, wait: true })
    users.push(install.user_app_id)
  }
  return {
    sim,
    balancer,
    instances,
    appId: app.app_id,
    keyId: key.id,
    secret: app.secret,
    prefix,
    users,
    broadcast: async (message) => {
      const response = await fetch(`${balancer.url}/broadcast`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      })
      await response.arrayBuffer()
      return response.status
    },
    close: async () => {
      const exits = await Promise.all(instances.map((instance) => stop(instance)))
      for (const instance of instances) cleanUp(instance)
      await balancer.close()
      await sim.close()
      if (exits.some((code) => code !== 0)) throw new Error(`an instance exited with ${exits.join(', ')}`)
    },
  }
}

/** What the simulator saw of the app's traffic between `from` and `to` (epoch ms). */
export function tally(fleet: Fleet, from: number, to: number) {
  const within = (at: string) => {
    const ms = Date.parse(at)
    return ms >= from && ms <= to
  }
  const requests = fleet.sim.log.entries().filter((entry) => entry.type === 'request' && within(entry.at))
  const vibes = fleet.sim.log.vibes().filter((vibe) => vibe.app_id === fleet.appId && within(vibe.at))
  const is = (entry: (typeof requests)[number], status: number, path?: string) =>
    entry.type === 'request' && entry.status === status && (path === undefined || entry.path.endsWith(path))
  return {
    /** Trigger requests the service took. */
    triggers: requests.filter((entry) => is(entry, 200, '/vibes/trigger')).length,
    /** Every request the service answered 429. */
    refused429: requests.filter((entry) => is(entry, 429)).length,
    /** Every request made with the key. */
    requests: requests.length,
    /** Gesture replies' vibes the ring played, and those refused for the user's limit. */
    replies: vibes.filter((vibe) => vibe.source === 'gesture_reply' && vibe.status === 'delivered').length,
    repliesRateLimited: vibes.filter((vibe) => vibe.source === 'gesture_reply' && vibe.rule?.startsWith('rate_limited'))
      .length,
  }
}
