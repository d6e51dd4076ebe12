// The whole thing driven by the simulator of the service: its signed deliveries, its retry
// schedule and its acknowledgement limit (scaled by timeScale). A web process stores events on
// BullMQ and answers gestures inline; a worker handles the stored events. Redis is stopped in the
// middle: a gesture is still answered, a lifecycle event is refused until the simulator's retry
// finds Redis back, and then handled once.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { createEventQueue, createWorker, type EventQueue, type RinghookWorker } from '@ringhook/bullmq'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createSimulator, type Simulator } from '@ringhook/simulator'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { connectRedis } from '../redis/support/redis.js'
import { type RedisServer, startRedisServer } from '../redis/support/redis-server.js'
import { FAST_LOCKS, queuePrefix } from './support/queue.js'

const prefix = queuePrefix('sim')
let redisServer: RedisServer
let redis: Redis
let events: EventQueue
let worker: RinghookWorker
let server: Server
let sim: Simulator
const secrets: string[] = []
/** Events the worker handled: `event name:user_app_id`, one entry per run. */
const handled: string[] = []

beforeAll(async () => {
  redisServer = await startRedisServer()
  redis = await connectRedis(redisServer.port)
  events = createEventQueue({ connection: redis, prefix, addTimeoutMs: 300 })
  // The simulator's acknowledgement limit is 30 s × 0.1 = 3 s: the deadline stays under it.
  const receiver = events.attach(createReceiver({ secret: () => secrets, logger: silentLogger, deadlineMs: 2_000 }))
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(`Got ${event.gesture_type}`))
  server = createServer(ringhook(receiver)).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))

  worker = createWorker({ connection: redis, prefix, logger: silentLogger, ...FAST_LOCKS })
  worker.onAny((event) => {
    handled.push(`${event.event}:${String(event.user_app_id)}`)
  })
  // Retries after 100 ms, 500 ms and 3 s; the acknowledgement limit 3 s.
  sim = await createSimulator({ timeScale: 0.1 })
})

afterAll(async () => {
  await sim?.close()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  await worker?.close({ timeoutMs: 1_000 })
  await events?.close()
  redis?.disconnect()
  await redisServer?.close()
})

describe('the simulator drives a web process and a worker on BullMQ', () => {
  it('answers gestures inline, stores the rest, and loses nothing when Redis is briefly away', async () => {
    const { port } = server.address() as AddressInfo
    const ada = sim.users.create({ name: 'Ada' })
    const key = sim.keys.create({ user_id: ada.id })
    const app = sim.apps.create({ key_id: key.id, type: 'control', webhook_url: `http://127.0.0.1:${port}/webhooks` })
    secrets.push(app.secret)

    const { install } = await sim.install(app.app_id, ada.id, { activate: true, wait: true })
    const uai = install.user_app_id
    const { delivery, vibe: played } = await sim.gesture(uai, 'double_tap', { wait: true })
    expect(delivery?.status).toBe('delivered')
    expect(played).toMatchObject({ status: 'delivered', message: 'Got double_tap' })

    // Redis goes away: a gesture is still answered inline; a lifecycle event is refused.
    await redisServer.stop()
    const during = await sim.gesture(uai, 'swipe_up', { wait: true })
    expect(during.vibe).toMatchObject({ status: 'delivered', message: 'Got swipe_up' })
    const passive = sim.passive(uai)
    await poll('the simulator saw a refusal', async () =>
      sim.log.deliveries().some((d) => d.event === 'control.passive' && d.attempts.length > 0) ? true : undefined,
    )
    await sleep(150)
    await redisServer.start()
    await passive
    await sim.idle()

    const deliveries = sim.log.deliveries()
    for (const d of deliveries) expect(d.status).toBe('delivered')
    const refused = deliveries.find((d) => d.event === 'control.passive')
    expect(refused?.attempts[0]).toMatchObject({ outcome: 'http_error', status: 500 })
    expect(refused?.attempts.at(-1)).toMatchObject({ outcome: 'ok', status: 200 })

    const expected = ['app.activated', 'app.installed', 'control.passive'].map((name) => `${name}:${uai}`)
    await poll('the worker handled every stored event', async () => (handled.length >= 3 ? true : undefined), {
      timeoutMs: 10_000,
    })
    expect(handled.sort()).toEqual(expected)
  })
})
