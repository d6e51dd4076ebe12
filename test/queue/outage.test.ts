// Redis is killed while deliveries arrive, and started again. Every delivery must get a retryable
// answer or be stored; once Redis is back and the service's retries have arrived, every event
// must be handled, its effect applied exactly once.
import { setTimeout as sleep } from 'node:timers/promises'
import { createWorker } from '@ringhook/bullmq'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { connectRedis, dropPrefix } from '../redis/support/redis.js'
import { type RedisServer, startRedisServer } from '../redis/support/redis-server.js'
import { type Attempt, deliver } from '../redis/support/service.js'
import { recordingLogger } from '../support/adapter-kit.js'
import { responded, signed } from '../support/events.js'
import { effects, recordAnswer } from './support/effects.js'
import { FAST_LOCKS, queuePrefix } from './support/queue.js'
import { startWeb, type Web } from './support/web.js'

const prefix = queuePrefix('outage')
let server: RedisServer
let shared: Redis
const clients: Redis[] = []
const webs: Web[] = []
let worker: ReturnType<typeof createWorker>
/** Runs of the handler per event id, whatever they did. */
const runs = new Map<string, number>()
/** Job ids per event id, to match BullMQ's stall reports with events. */
const jobIds = new Map<string, string>()
/** What the worker logged: a job whose lock lapsed is reported, then runs again (at least once). */
const workerLog = recordingLogger()

const newEvents = (label: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const eventId = `${label}_${i}`
      return { eventId, delivery: await signed(responded(eventId)) }
    }),
  )

beforeAll(async () => {
  server = await startRedisServer()
  // Effects are written to the shared Redis, so that counting them does not depend on the one killed.
  shared = await connectRedis()
  // One web process with the recommended client (a command fails after one failed reconnection),
  // one that fails commands at once while disconnected.
  clients.push(await connectRedis(server.port), await connectRedis(server.port, { enableOfflineQueue: false }))
  for (const client of clients) webs.push(await startWeb({ connection: client, prefix, addTimeoutMs: 500 }))
  worker = createWorker({ connection: clients[0] as Redis, prefix, logger: workerLog.logger, ...FAST_LOCKS })
  worker.on('notification.responded', async (event, context) => {
    runs.set(event.data.event_id, (runs.get(event.data.event_id) ?? 0) + 1)
    jobIds.set(event.data.event_id, context.job.id)
    await recordAnswer(shared, prefix, event, context)
  })
})

afterAll(async () => {
  await worker?.close({ timeoutMs: 1_000 })
  await Promise.all(webs.map((web) => web.close()))
  for (const client of clients) client.disconnect()
  await server?.close()
  if (shared) await dropPrefix(shared, `${prefix}:`)
  shared?.disconnect()
})

describe('Redis down while deliveries arrive', () => {
  it('acknowledges only what it stored; after the retries every event is handled once', async () => {
    const urls = webs.map((web) => web.url)
    const before = await newEvents('before', 10)
    for (const { delivery } of before) expect((await deliver(delivery, urls)).attempts).toHaveLength(1)
    await poll('the first events were handled', async () =>
      (await effects(shared, prefix)).length === 10 ? true : undefined,
    )

    await server.stop()
    const during = await newEvents('during', 20)
    const attempts: Attempt[] = []
    let refused = 0
    const sent = during.map(({ delivery }, i) =>
      deliver(delivery, i % 2 ? urls : [...urls].reverse(), {
        retryDelayMs: 100,
        giveUpAfterMs: 30_000,
        onAttempt: (attempt) => {
          attempts.push(attempt)
          if (attempt.status >= 300) refused++
        },
      }),
    )
    // Every delivery is turned away at least once while Redis is down.
    await poll('each delivery refused at least once', async () => (refused >= during.length ? true : undefined), {
      timeoutMs: 10_000,
    })
    // Held down a while longer: several rounds of retries, and the worker's connections broken.
    await sleep(1_000)
    const sentWhileDown = attempts.length
    await server.start()
    const answers = await Promise.all(sent)
    for (const answer of answers) expect(answer.status).toBe(200)

    // Nothing was acknowledged while Redis was down; each refusal is a retryable 5xx.
    const whileDown = attempts.slice(0, sentWhileDown)
    expect(whileDown.filter((attempt) => attempt.status < 300)).toEqual([])
    for (const attempt of whileDown) expect(attempt).toMatchObject({ status: 500, code: 'handler_error' })

    const all = [...before, ...during].map(({ eventId }) => eventId).sort()
    await poll(
      'every event was handled',
      async () => ((await effects(shared, prefix)).length >= all.length ? true : undefined),
      {
        timeoutMs: 15_000,
      },
    )
    expect(await effects(shared, prefix)).toEqual(all)
    // No event was stored twice: each job ran once, or once more after BullMQ reported that its
    // lock lapsed (a completion lost when Redis stopped, or a worker starved past its 1 s lock):
    // BullMQ runs a job at least once, and the effect above stayed exactly once.
    const stalled = (jobId: string | undefined) =>
      workerLog.lines.filter((line) => line.level === 'warn' && line.fields.job_id === jobId).length
    for (const eventId of all) expect(runs.get(eventId)).toBe(1 + stalled(jobIds.get(eventId)))
    const errors = webs.flatMap((web) => web.errors.map((error) => error.code))
    expect(new Set(errors)).toEqual(new Set(['handler_error']))
  })
})
