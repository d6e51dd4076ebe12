// Two receiver instances, each a real HTTP server with its own connection to the shared Redis,
// as two hosts behind a load balancer that the service's retries may reach in any order.
import { createRedisStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { gesture, post, signed } from '../support/events.js'
import { gate } from '../support/gate.js'
import { type Instance, runs, startInstance } from './support/instances.js'
import { connectRedis, dropPrefix, uniquePrefix } from './support/redis.js'

const prefix = uniquePrefix('instances')
const clients: Redis[] = []
let a: Instance
let b: Instance

beforeAll(async () => {
  clients.push(await connectRedis(), await connectRedis())
  const [one, two] = clients as [Redis, Redis]
  a = await startInstance('A', createRedisStore({ client: one, prefix }))
  b = await startInstance('B', createRedisStore({ client: two, prefix }))
})

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  if (clients[0]) await dropPrefix(clients[0], prefix)
  for (const client of clients) client.disconnect()
})

beforeEach(() => {
  a.hold = undefined
  b.hold = undefined
})

describe('two instances sharing one Redis', () => {
  it('run the handler once for a delivery sent to both at once', async () => {
    const held = gate()
    a.hold = () => held.promise
    b.hold = () => held.promise
    const cases = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const payload = gesture()
        const delivery = await signed(payload)
        return { payload, delivery, sent: [post(a.url, delivery), post(b.url, delivery)] as const }
      }),
    )
    // The instance that lost the claim answers at once; the winner's handler is held until then,
    // so the two requests of every pair truly overlap.
    await Promise.all(cases.map(({ sent }) => Promise.race(sent)))
    held.open()

    for (const { payload, delivery, sent } of cases) {
      const [fromA, fromB] = await Promise.all(sent)
      expect(runs([a, b], payload.timestamp)).toBe(1)
      expect([fromA.status, fromB.status].sort()).toEqual([200, 409])
      const [winner, loser, loserUrl] = fromA.status === 200 ? [fromA, fromB, b.url] : [fromB, fromA, a.url]
      expect(loser.body).toMatchObject({ error: { code: 'delivery_in_progress' } })
      expect(loser.headers.get('retry-after')).toBe('1')

      // The service retries the loser; it gets the winner's reply, and no handler runs again.
      const retry = await post(loserUrl, delivery)
      expect(retry.status).toBe(200)
      expect(retry.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(retry.body).toEqual(winner.body)
      expect(runs([a, b], payload.timestamp)).toBe(1)
    }
  })

  it("answer a gesture retried on the other instance with the first instance's vibe", async () => {
    for (const [first, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const payload = gesture()
      const delivery = await signed(payload)
      const original = await post(first.url, delivery)
      expect(original.status).toBe(200)
      expect(original.body).toMatchObject({ success: true, vibe: { message: `from ${first.name}` } })

      const retry = await post(other.url, delivery)
      expect(retry.status).toBe(200)
      expect(retry.body).toEqual(original.body)
      expect(retry.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(other.handled).not.toContain(payload.timestamp)
      expect(runs([a, b], payload.timestamp)).toBe(1)
    }
  })

  it('let the other instance run a delivery whose handler failed on the first', async () => {
    const payload = gesture()
    const delivery = await signed(payload)
    a.hold = async () => {
      throw new Error('the database is away')
    }
    const failed = await post(a.url, delivery)
    expect(failed.status).toBe(500)
    expect(failed.body).toMatchObject({ error: { code: 'handler_error' } })

    const retry = await post(b.url, delivery)
    expect(retry.status).toBe(200)
    expect(retry.body).toMatchObject({ vibe: { message: 'from B' } })
    expect(runs([a, b], payload.timestamp)).toBe(2)
    expect(await post(a.url, delivery)).toMatchObject({ status: 200, body: retry.body })
  })
})
