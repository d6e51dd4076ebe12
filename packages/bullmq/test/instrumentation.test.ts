import { AsyncLocalStorage } from 'node:async_hooks'
import { createEventQueue, createWorker, type QueueInstrumentation } from '@ringhook/bullmq'
import { type DeliveryInfo, silentLogger } from '@ringhook/core'
import { parseEvent } from '@ringhook/core/api'
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FAST_JOBS, FAST_LOCKS, queuePrefix } from '../../../test/queue/support/queue.js'
import { poll } from '../../../test/redis/support/poll.js'
import { connectRedis, dropPrefix } from '../../../test/redis/support/redis.js'
import { NOW_S, responded } from '../../../test/support/events.js'

let redis: Redis
const prefix = queuePrefix('instrumentation')
const open: { close(): Promise<unknown> }[] = []

beforeAll(async () => {
  redis = await connectRedis()
})
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.close()))
})
afterAll(async () => {
  await dropPrefix(redis, `${prefix}:`)
  redis.disconnect()
})

const delivery = (eventId: string): DeliveryInfo => ({
  key: `test:${eventId}`,
  eventId,
  signedAt: NOW_S,
  receivedAt: new Date(),
  secretIndex: 0,
})

describe('queue instrumentation', () => {
  it('times each enqueue, carries its trace context in the job, and runs the worker inside the observer', async () => {
    const log: string[] = []
    const storage = new AsyncLocalStorage<string>()
    const instrumentation: QueueInstrumentation = {
      enqueue: ({ event, queue }) => ({
        trace: { traceparent: `parent-of-${event}` },
        end: (ok, ms) => void log.push(`enqueued ${queue} ${ok} ${ms >= 0}`),
      }),
      process: ({ event, queue, attempt, trace, jobId }) => ({
        run: (run) => storage.run(`${event} #${attempt} ${jobId.slice(0, 3)}`, run),
        end: (ok, ms) => void log.push(`processed ${queue} ${trace?.traceparent} #${attempt} ${ok} ${ms >= 0}`),
      }),
    }
    const events = createEventQueue({ connection: redis, prefix, name: 'traced', jobs: FAST_JOBS, instrumentation })
    open.push(events)
    const worker = createWorker({
      connection: redis,
      prefix,
      name: 'traced',
      logger: silentLogger,
      instrumentation,
      ...FAST_LOCKS,
    })
    open.push({ close: () => worker.close({ timeoutMs: 1_000 }) })
    const contexts: Array<string | undefined> = []
    let runs = 0
    worker.on('notification.responded', async () => {
      contexts.push(storage.getStore())
      await new Promise((resolve) => setTimeout(resolve, 5))
      contexts.push(storage.getStore())
      if (++runs === 1) throw new Error('first run fails')
    })

    const parsed = parseEvent(responded('evt_traced'))
    if (!parsed.ok) throw new Error('test payload does not parse')
    await events.enqueue(parsed.event, delivery('evt_traced'))
    await poll('the retry succeeded', async () => (log.length === 3 ? true : undefined))
    expect(log).toEqual([
      'enqueued traced true true',
      'processed traced parent-of-notification.responded #1 false true',
      'processed traced parent-of-notification.responded #2 true true',
    ])
    expect(contexts).toEqual([
      'notification.responded #1 rh-',
      'notification.responded #1 rh-',
      'notification.responded #2 rh-',
      'notification.responded #2 rh-',
    ])
  })

  it('reports an enqueue Redis did not store', async () => {
    const log: boolean[] = []
    const events = createEventQueue({
      connection: { host: '127.0.0.1', port: 1, maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true },
      prefix,
      addTimeoutMs: 200,
      instrumentation: { enqueue: () => ({ end: (ok) => void log.push(ok) }) },
    })
    open.push(events)
    const parsed = parseEvent(responded('evt_lost'))
    if (!parsed.ok) throw new Error('test payload does not parse')
    await expect(events.enqueue(parsed.event, delivery('evt_lost'))).rejects.toMatchObject({ name: 'EnqueueError' })
    expect(log).toEqual([false])
  })
})
