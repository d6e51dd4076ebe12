import {
  createEventQueue,
  createWorker,
  type EventQueue,
  type JobContext,
  listJobs,
  type RinghookWorker,
  replayJob,
} from '@ringhook/bullmq'
import {
  type DeliveryInfo,
  type Handler,
  type Logger,
  type RinghookError,
  silentLogger,
  type UnknownEvent,
  type WebhookEvent,
} from '@ringhook/core'
import { parseEvent } from '@ringhook/core/api'
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FAST_JOBS, FAST_LOCKS, queuePrefix } from '../../../test/queue/support/queue.js'
import { poll } from '../../../test/redis/support/poll.js'
import { connectRedis, dropPrefix } from '../../../test/redis/support/redis.js'
import { lifecycle, NOW_S, responded } from '../../../test/support/events.js'
import { gate } from '../../../test/support/gate.js'

let redis: Redis
const prefix = queuePrefix('worker')
let queueCount = 0
const open: { close(): Promise<unknown> }[] = []

/** A queue of its own for each test, and a way to put events on it without HTTP. */
function newQueue(): EventQueue & { name: string; add(payload: Record<string, unknown>): Promise<string> } {
  const name = `q${++queueCount}`
  const events = createEventQueue({ connection: redis, prefix, name, jobs: FAST_JOBS })
  open.push(events)
  const add = (payload: Record<string, unknown>) => {
    const parsed = parseEvent(payload)
    if (!parsed.ok) throw new Error('test payload does not parse')
    return events.enqueue(parsed.event, delivery(parsed.event))
  }
  return Object.assign(events, { name, add })
}

function delivery(event: WebhookEvent | UnknownEvent): DeliveryInfo {
  const eventId = (event as { data?: { event_id?: string } }).data?.event_id
  return {
    key: `app_demo:test:${event.event}:${String(event.timestamp)}:${eventId ?? ''}`,
    eventId,
    signedAt: NOW_S,
    receivedAt: new Date(),
    secretIndex: 0,
  }
}

function newWorker(name: string, options: { concurrency?: number; logger?: Logger } = {}): RinghookWorker {
  const worker = createWorker({ connection: redis, prefix, name, logger: silentLogger, ...FAST_LOCKS, ...options })
  open.push({ close: () => worker.close({ timeoutMs: 1_000 }) })
  return worker
}

/** A logger that keeps the bindings of every child, to check what handlers log under. */
function recordingLogger(children: Record<string, unknown>[]): Logger {
  const noop = () => {}
  const make = (bindings: Record<string, unknown>): Logger => ({
    debug: noop,
    info: noop,
    warn: noop,
    error: noop,
    child: (more) => {
      const merged = { ...bindings, ...more }
      children.push(merged)
      return make(merged)
    },
  })
  return make({})
}

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

describe('createWorker', () => {
  it("runs the receiver's typed handlers with the receiver's context, plus the job", async () => {
    const queue = newQueue()
    const children: Record<string, unknown>[] = []
    const worker = newWorker(queue.name, { logger: recordingLogger(children) })
    const seen: { event: WebhookEvent | UnknownEvent; context: JobContext }[] = []
    // A handler written for a receiver runs on the worker as it is.
    const saveAnswer: Handler<'notification.responded'> = (event, context) => {
      seen.push({ event, context: context as JobContext })
    }
    worker.on('notification.responded', saveAnswer)
    worker.on(['app.installed', 'app.activated'], (event, context) => {
      seen.push({ event, context })
    })
    worker.onAny((event, context) => {
      if (event.event === 'slot.booked') seen.push({ event, context })
    })

    const id = await queue.add(responded('evt_ctx', 'no'))
    await queue.add(lifecycle('app.activated'))
    await queue.add(lifecycle('slot.booked', { slot: 2 }))
    await poll('three handlers ran', async () => (seen.length === 3 ? true : undefined))

    const answer = seen.find(({ event }) => event.event === 'notification.responded')
    expect(answer?.event).toMatchObject({ data: { event_id: 'evt_ctx', response: 'no' } })
    expect(answer?.context.delivery).toMatchObject({ eventId: 'evt_ctx', signedAt: NOW_S, secretIndex: 0 })
    expect(answer?.context.delivery.receivedAt).toBeInstanceOf(Date)
    expect(answer?.context.signal.aborted).toBe(false)
    expect(answer?.context.job).toEqual({ id, queue: queue.name, attempt: 1, attempts: 3, idempotencyKey: id })
    expect(children).toContainEqual(
      expect.objectContaining({
        event: 'notification.responded',
        job_id: id,
        delivery_key: answer?.context.delivery.key,
      }),
    )
    expect(seen.map(({ event }) => event.event).sort()).toEqual([
      'app.activated',
      'notification.responded',
      'slot.booked',
    ])
    await poll('the jobs completed', async () =>
      (await queue.queue.getJobCounts('completed')).completed === 3 ? true : undefined,
    )
  })

  it('retries a failing handler with backoff until it succeeds, without reporting it', async () => {
    const queue = newQueue()
    const worker = newWorker(queue.name)
    const attempts: number[] = []
    const errors: RinghookError[] = []
    worker.on('app.installed', (_event, context) => {
      attempts.push(context.job.attempt)
      if (context.job.attempt < 3) throw new Error('the CRM is down')
    })
    worker.onError((error) => {
      errors.push(error)
    })
    const id = await queue.add(lifecycle('app.installed'))
    await poll('the job completed', async () =>
      (await queue.queue.getJobState(id)) === 'completed' ? true : undefined,
    )
    expect(attempts).toEqual([1, 2, 3])
    expect(errors).toEqual([])
  })

  it('fails a job after its last attempt: kept in the failed set, reported to onError, replayable', async () => {
    const queue = newQueue()
    const worker = newWorker(queue.name)
    let broken = true
    const runs: number[] = []
    const reported: { error: RinghookError; event: unknown; context: JobContext | undefined }[] = []
    worker.on('notification.responded', (_event, context) => {
      runs.push(context.job.attempt)
      if (broken) throw new Error('the database rejected it')
    })
    worker.onError((error, event, context) => {
      reported.push({ error, event, context })
    })
    // As it travels: JSON, so the fixture's undefined fields are gone.
    const payload = JSON.parse(JSON.stringify(responded('evt_dead', 'yes')))
    const id = await queue.add(payload)

    await poll('the failure was reported', async () => (reported.length === 1 ? true : undefined))
    expect(runs).toEqual([1, 2, 3])
    expect(await queue.queue.getJobState(id)).toBe('failed')
    const [report] = reported
    expect(report?.error).toMatchObject({ code: 'handler_error', phase: 'handler' })
    expect(report?.error.message).toMatch(/after 3 attempt\(s\): the database rejected it/)
    expect(report?.event).toEqual(payload)
    expect(report?.context?.job.id).toBe(id)
    expect(report?.context?.delivery.eventId).toBe('evt_dead')

    const [dead] = await listJobs(queue.queue, 'failed')
    expect(dead).toMatchObject({ id, name: 'notification.responded', event: payload, attemptsMade: 3 })
    expect(dead?.delivery?.eventId).toBe('evt_dead')
    expect(dead?.failedReason).toBe('the database rejected it')

    broken = false
    expect(await replayJob(queue.queue, id)).toEqual({ id, replayed: true })
    await poll('the replay completed', async () =>
      (await queue.queue.getJobState(id)) === 'completed' ? true : undefined,
    )
    expect(runs).toEqual([1, 2, 3, 1])
    expect(reported).toHaveLength(1)
    expect(await replayJob(queue.queue, id)).toEqual({
      id,
      replayed: false,
      reason: 'the job is completed, not failed',
    })
    expect(await replayJob(queue.queue, 'rh-nope')).toEqual({ id: 'rh-nope', replayed: false, reason: 'no such job' })
  })

  it('fails an attempt as a receiver does: every handler runs to its end, and every failure is kept', async () => {
    const queue = newQueue()
    const worker = newWorker(queue.name)
    const finished: string[] = []
    const reported: RinghookError[] = []
    worker.on('app.installed', () => {
      throw new Error('the CRM is down')
    })
    worker.on('app.installed', async () => {
      await redis.ping() // still running when the first handler has already thrown
      finished.push('mailer')
      throw new Error('the mailer is down')
    })
    worker.onAny(() => {
      finished.push('audit')
    })
    worker.onError((error) => {
      reported.push(error)
    })
    const id = await queue.add(lifecycle('app.installed'))

    await poll('the failure was reported', async () => (reported.length === 1 ? true : undefined))
    expect(finished).toEqual(['audit', 'mailer', 'audit', 'mailer', 'audit', 'mailer'])
    const cause = reported[0]?.cause
    expect(cause).toBeInstanceOf(AggregateError)
    expect((cause as AggregateError).errors.map((error: Error) => error.message)).toEqual([
      'the CRM is down',
      'the mailer is down',
    ])
    const [dead] = await listJobs(queue.queue, 'failed')
    expect(dead).toMatchObject({ id, attemptsMade: 3 })
    expect(dead?.failedReason).toBe('2 handlers failed: the CRM is down; the mailer is down')
  })

  it('fails a job whose data no worker can read at once, reported without an event', async () => {
    const queue = newQueue()
    const worker = newWorker(queue.name)
    const reported: RinghookError[] = []
    worker.onError((error, event, context) => {
      expect(event).toBeUndefined()
      expect(context).toBeUndefined()
      reported.push(error)
    })
    const job = await queue.queue.add('app.installed', { something: 'else' }, { jobId: 'rh-foreign' })
    await poll('the failure was reported', async () => (reported.length === 1 ? true : undefined))
    expect(await job.getState()).toBe('failed')
    expect(reported[0]?.message).toMatch(/after 1 attempt\(s\): JobDataError: not a ringhook job/)
  })

  it('runs up to `concurrency` jobs at once', async () => {
    const queue = newQueue()
    const worker = newWorker(queue.name, { concurrency: 3 })
    let running = 0
    let most = 0
    let done = 0
    const release = gate()
    worker.on('app.installed', async () => {
      running++
      most = Math.max(most, running)
      await release.promise
      running--
      done++
    })
    for (let i = 0; i < 6; i++) await queue.add(lifecycle('app.installed'))
    await poll('three jobs running', async () => (running === 3 ? true : undefined))
    release.open()
    await poll('all six done', async () => (done === 6 ? true : undefined))
    expect(most).toBe(3)
  })
})

describe('worker.close()', () => {
  it('finishes the jobs in progress, then stops taking new ones', async () => {
    const queue = newQueue()
    const worker = newWorker(queue.name)
    const started = gate()
    const finish = gate()
    const handled: string[] = []
    worker.on('app.installed', async (event) => {
      started.open()
      await finish.promise
      handled.push(event.timestamp)
    })
    const id = await queue.add(lifecycle('app.installed'))
    await started.promise
    // What the job had done when close() resolved: the job is let go only once close() has begun.
    const closed = worker.close({ timeoutMs: 5_000 }).then((result) => ({ result, handled: handled.length }))
    finish.open()
    expect(await closed).toEqual({ result: { drained: true, returned: 0 }, handled: 1 })
    expect(await queue.queue.getJobState(id)).toBe('completed')

    const later = await queue.add(lifecycle('app.installed'))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await queue.queue.getJobState(later)).toBe('waiting')
  })

  it('gives back a job whose handler outlives the timeout, aborting its signal; another worker runs it', async () => {
    const queue = newQueue()
    const first = newWorker(queue.name)
    const started = gate()
    let signal: AbortSignal | undefined
    first.on('app.installed', (_event, context) => {
      signal = context.signal
      started.open()
      return new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()))
    })
    const id = await queue.add(lifecycle('app.installed'))
    await started.promise
    expect(await first.close({ timeoutMs: 200 })).toEqual({ drained: false, returned: 1 })
    expect(signal?.aborted).toBe(true)
    expect(await queue.queue.getJobState(id)).toBe('waiting')

    const second = newWorker(queue.name)
    const ran: JobContext[] = []
    second.on('app.installed', (_event, context) => {
      ran.push(context)
    })
    await poll('the second worker completed it', async () =>
      (await queue.queue.getJobState(id)) === 'completed' ? true : undefined,
    )
    expect(ran.map((context) => context.job.id)).toEqual([id])
  })
})
