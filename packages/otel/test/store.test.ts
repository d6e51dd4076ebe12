import { createReceiver, silentLogger } from '@ringhook/core'
import type { DedupStore } from '@ringhook/core/store'
import { createRedisStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { capture, points, summary } from '../../../test/otel/support/capture.js'
import { connectRedis, dropPrefix, uniquePrefix } from '../../../test/redis/support/redis.js'
import { gesture, NOW_MS, signed } from '../../../test/support/events.js'
import { otelInstrumentation } from '../src/index.js'

const telemetry = capture()
const prefix = uniquePrefix('otel-store')
let redis: Redis

beforeAll(async () => {
  redis = await connectRedis()
})
afterAll(async () => {
  await telemetry.shutdown()
  await dropPrefix(redis, prefix)
  redis.disconnect()
})
beforeEach(async () => {
  await telemetry.metrics()
})

function receiverOn(store: DedupStore) {
  const receiver = createReceiver({
    secret: 'whsec_conformance_secret',
    now: () => NOW_MS,
    logger: silentLogger,
    store,
    instrumentation: otelInstrumentation({
      tracerProvider: telemetry.tracerProvider,
      meterProvider: telemetry.meterProvider,
    }),
  })
  receiver.on('gesture', () => undefined)
  return receiver
}

async function deliver(receiver: ReturnType<typeof receiverOn>, payload = gesture()) {
  const { body, headers } = await signed(payload)
  return receiver.handle({ method: 'POST', headers, rawBody: body })
}

describe('dedup store metrics', () => {
  it('time each Redis round trip a delivery waits for', async () => {
    const receiver = receiverOn(createRedisStore({ client: redis, prefix }))
    const payload = gesture()
    expect((await deliver(receiver, payload)).status).toBe(200)
    expect((await deliver(receiver, payload)).status).toBe(200)
    const durations = points(await telemetry.metrics(), 'ringhook.store.duration')
    expect(durations.map(({ attributes, value }) => [attributes['ringhook.store.operation'], value])).toEqual([
      ['claim', 2],
      ['complete', 1],
    ])
    // Real round trips: more than nothing, less than the store's 1 s timeout.
    for (const { sum, value } of durations) {
      expect(sum).toBeGreaterThan(0)
      expect((sum ?? 0) / value).toBeLessThan(1)
    }
  })

  it('count the store calls that fail, by operation', async () => {
    const redisStore = createRedisStore({ client: redis, prefix })
    const failing: DedupStore = {
      claim: (...args) => redisStore.claim(...args),
      complete: () => Promise.reject(new Error('READONLY You can’t write against a read only replica')),
      release: (...args) => redisStore.release(...args),
    }
    const receiver = receiverOn(failing)
    expect((await deliver(receiver)).status).toBe(200)
    const down = receiverOn({ ...failing, claim: () => Promise.reject(new Error('ECONNREFUSED')) })
    expect((await deliver(down)).status).toBe(503)
    expect(summary(await telemetry.metrics()).filter((line) => !line.startsWith('ringhook.store.duration'))).toEqual([
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=ok} 1',
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=store_unavailable} 1',
      'ringhook.handler.duration {ringhook.event=gesture,ringhook.handler.outcome=ok} 1',
      'ringhook.store.errors {ringhook.store.operation=claim} 1',
      'ringhook.store.errors {ringhook.store.operation=complete} 1',
    ])
  })
})
