// Fault injection: the instances' Redis is killed and started again in the middle of a run of
// deliveries, under the default policy (answer 503 while the store is down). Nothing may be
// lost, nothing processed twice, and the receivers must recover without a restart.
import { createRedisStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gesture, post, signed } from '../support/events.js'
import { gate } from '../support/gate.js'
import { type Instance, runs, startInstance } from './support/instances.js'
import { connectRedis } from './support/redis.js'
import { type RedisServer, startRedisServer } from './support/redis-server.js'
import { type Attempt, deliver } from './support/service.js'

const COMMAND_TIMEOUT_MS = 300
let server: RedisServer
const clients: Redis[] = []
let instances: Instance[]

const newDeliveries = (count: number) =>
  Promise.all(
    Array.from({ length: count }, async () => {
      const payload = gesture()
      return { timestamp: payload.timestamp, delivery: await signed(payload) }
    }),
  )

/** Resolves once `count` attempts have been answered 503 `store_unavailable`. */
function storeFailures(count: number) {
  const seen: Attempt[] = []
  let reached = () => {}
  const enough = new Promise<void>((resolve) => {
    reached = resolve
  })
  const onAttempt = (attempt: Attempt) => {
    if (attempt.code !== 'store_unavailable') return
    seen.push(attempt)
    if (seen.length >= count) reached()
  }
  return { seen, enough, onAttempt }
}

beforeAll(async () => {
  server = await startRedisServer()
  // A uses the client options the README recommends; B ioredis' defaults, which queue commands
  // while reconnecting and send them late: the store must stay correct with either.
  clients.push(await connectRedis(server.port), await connectRedis(server.port, { maxRetriesPerRequest: 20 }))
  const [one, two] = clients as [Redis, Redis]
  const options = { dedup: { inFlightTtlMs: 2_000 } }
  instances = [
    await startInstance('A', createRedisStore({ client: one, commandTimeoutMs: COMMAND_TIMEOUT_MS }), options),
    await startInstance('B', createRedisStore({ client: two, commandTimeoutMs: COMMAND_TIMEOUT_MS }), options),
  ]
})

afterAll(async () => {
  await Promise.all(instances?.map((instance) => instance.close()) ?? [])
  for (const client of clients) client.disconnect()
  await server?.close()
})

describe('a Redis that goes down and comes back mid-run', () => {
  it('loses no delivery, processes none twice, and recovers without restarting the receivers', async () => {
    const urls = instances.map((instance) => instance.url)
    const [a] = instances as [Instance]

    // Before: deliveries processed normally.
    const before = await newDeliveries(10)
    const originals = await Promise.all(before.map(({ delivery }) => deliver(delivery, urls)))
    // Each answered on its first attempt, or (a command slower than COMMAND_TIMEOUT_MS on a loaded
    // machine) after retryable store_unavailable answers only.
    for (const answer of originals)
      expect(answer.attempts.slice(0, -1).map((attempt) => attempt.code)).toEqual(
        answer.attempts.slice(0, -1).map(() => 'store_unavailable'),
      )

    // A handler is running on A when Redis dies: it cannot record its reply, yet still answers.
    const held = gate()
    const started = gate()
    a.hold = () => {
      started.open()
      return held.promise
    }
    const [caught] = await newDeliveries(1)
    if (!caught) throw new Error('unreachable')
    const caughtAnswer = post(a.url, caught.delivery)
    await started.promise
    a.hold = undefined
    await server.stop()
    held.open()
    expect((await caughtAnswer).status).toBe(200)

    // During: new deliveries, and duplicates of earlier ones, are all turned away with a 503.
    const during = await newDeliveries(10)
    const failures = storeFailures(20)
    const sent = [...during, ...before].map(({ delivery }, index) =>
      deliver(delivery, index % 2 ? urls : [...urls].reverse(), { onAttempt: failures.onAttempt }),
    )
    await failures.enough
    for (const attempt of failures.seen) expect(attempt).toMatchObject({ status: 503, retryAfter: '1' })

    // After: the same receivers, their clients reconnected by themselves, take every retry.
    await server.start()
    const answers = await Promise.all(sent)
    for (const answer of answers) expect(answer.status).toBe(200)
    for (const { timestamp } of [...before, caught, ...during]) expect(runs(instances, timestamp)).toBe(1)
    // Duplicates of deliveries finished before the crash got the very reply the original got.
    for (const [index, original] of originals.entries()) {
      expect(answers[during.length + index]?.body).toEqual(original.body)
      expect(answers[during.length + index]?.headers.get('x-ringhook-duplicate')).toBe('true')
    }
    const errors = instances.flatMap((instance) => instance.errors.map((error) => error.code))
    expect(new Set(errors)).toEqual(new Set(['store_unavailable']))

    const [fresh] = await newDeliveries(1)
    if (!fresh) throw new Error('unreachable')
    expect((await deliver(fresh.delivery, urls)).attempts).toHaveLength(1)
  })
})

describe("the 'process' policy", () => {
  it('runs handlers while Redis is down, at the price of running a duplicate again', async () => {
    const [client] = clients as [Redis]
    const store = createRedisStore({ client, commandTimeoutMs: COMMAND_TIMEOUT_MS })
    const processing = await startInstance('P', store, { onStoreError: 'process' })
    try {
      const [only] = await newDeliveries(1)
      if (!only) throw new Error('unreachable')
      await server.stop()
      const first = await post(processing.url, only.delivery)
      const again = await post(processing.url, only.delivery)
      for (const answer of [first, again]) {
        expect(answer.status).toBe(200)
        expect(answer.body).toMatchObject({ vibe: { message: 'from P' } })
      }
      expect(processing.handled).toEqual([only.timestamp, only.timestamp])
    } finally {
      await server.start()
      await processing.close()
    }
  })
})
