// Two web processes and two workers on one Redis, each web process with its own in-memory dedup
// store (so only the job id can recognise a copy that reaches the other one). Every event is sent
// several times at once to both, and again once handled, as the service's retries would: every
// unique event must be handled once, none lost.
import { createWorker, type RinghookWorker } from '@ringhook/bullmq'
import { silentLogger } from '@ringhook/core'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { connectRedis, dropPrefix } from '../redis/support/redis.js'
import { deliver } from '../redis/support/service.js'
import { lifecycle, responded, signed } from '../support/events.js'
import { effects, recordAnswer } from './support/effects.js'
import { FAST_LOCKS, queuePrefix } from './support/queue.js'
import { startWeb, type Web } from './support/web.js'

const prefix = queuePrefix('many')
const EVENTS = 40
const COPIES = 3
let redis: Redis
const clients: Redis[] = []
const webs: Web[] = []
const workers: RinghookWorker[] = []
/** Which worker ran which event, one entry per run. */
const runs: { worker: number; key: string }[] = []

beforeAll(async () => {
  redis = await connectRedis()
  for (let i = 0; i < 2; i++) {
    const client = await connectRedis()
    clients.push(client)
    webs.push(await startWeb({ connection: client, prefix }))
  }
  for (let i = 0; i < 2; i++) {
    const worker = createWorker({ connection: redis, prefix, logger: silentLogger, concurrency: 5, ...FAST_LOCKS })
    worker.on('notification.responded', async (event, context) => {
      runs.push({ worker: i, key: event.data.event_id })
      await recordAnswer(redis, prefix, event, context)
    })
    worker.on('app.installed', (event) => {
      runs.push({ worker: i, key: event.timestamp })
    })
    workers.push(worker)
  }
})

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close({ timeoutMs: 1_000 })))
  await Promise.all(webs.map((web) => web.close()))
  for (const client of clients) client.disconnect()
  if (redis) await dropPrefix(redis, `${prefix}:`)
  redis?.disconnect()
})

describe('two web processes and two workers', () => {
  it('handles every unique event once under concurrent copies and retries', async () => {
    const urls = webs.map((web) => web.url)
    const payloads = Array.from({ length: EVENTS }, (_, i) =>
      i % 2 ? responded(`evt_many_${i}`) : lifecycle('app.installed'),
    )
    const keyOf = (payload: Record<string, unknown>) =>
      payload.event === 'notification.responded'
        ? (payload.data as { event_id: string }).event_id
        : (payload.timestamp as string)

    // Copies of each event at once, starting on different web processes, each retried until acknowledged.
    const copies = payloads.flatMap((payload) =>
      Array.from({ length: COPIES }, async (_, copy) =>
        deliver(await signed(payload), copy % 2 ? urls : [...urls].reverse(), { retryDelayMs: 20 }),
      ),
    )
    for (const answer of await Promise.all(copies)) expect(answer.status).toBe(200)

    const expected = payloads.map(keyOf).sort()
    await poll('every event handled', async () => (runs.length >= EVENTS ? true : undefined), { timeoutMs: 10_000 })
    // Late copies, as the service's last retries: both web processes acknowledge them, no new job.
    for (const payload of payloads.slice(0, 10)) {
      for (const url of urls) expect((await deliver(await signed(payload), [url])).status).toBe(200)
    }
    await poll('the queue is idle', async () => {
      const counts = await webs[0]?.events.queue.getJobCounts('waiting', 'active', 'delayed', 'completed')
      const pending = (counts?.waiting ?? 0) + (counts?.active ?? 0) + (counts?.delayed ?? 0)
      return counts?.completed === EVENTS && pending === 0 ? true : undefined
    })

    expect(runs.map((run) => run.key).sort()).toEqual(expected)
    expect(await effects(redis, prefix)).toEqual(expected.filter((key) => key.startsWith('evt_')))
    // Both workers took part.
    expect(new Set(runs.map((run) => run.worker)).size).toBe(2)
  })
})
