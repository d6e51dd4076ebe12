import { createEventQueue, EnqueueError, fromJobData, jobIdFor } from '@ringhook/bullmq'
import { createReceiver, RinghookConfigError, silentLogger } from '@ringhook/core'
import { parseEvent } from '@ringhook/core/api'
import { defaultDedupKey } from '@ringhook/core/store'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queuePrefix } from '../../../test/queue/support/queue.js'
import { startWeb, type Web } from '../../../test/queue/support/web.js'
import { connectRedis, dropPrefix } from '../../../test/redis/support/redis.js'
import { deliver } from '../../../test/redis/support/service.js'
import { gesture, lifecycle, NOW_S, post, responded, SECRET, signed } from '../../../test/support/events.js'

const keyOf = (payload: Record<string, unknown>): string => {
  const parsed = parseEvent(payload)
  if (!parsed.ok) throw new Error('test payload does not parse')
  return defaultDedupKey(parsed.event)
}

describe('createEventQueue attached to a receiver', () => {
  const prefix = queuePrefix('enqueue')
  let redis: Redis
  let web: Web
  let twin: Web

  beforeAll(async () => {
    redis = await connectRedis()
    web = await startWeb({ connection: redis, prefix })
    // A second web process: its own receiver and in-memory dedup store, the same queue.
    twin = await startWeb({ connection: redis, prefix })
  })
  afterAll(async () => {
    await web?.close()
    await twin?.close()
    await dropPrefix(redis, `${prefix}:`)
    redis.disconnect()
  })

  it('answers 200 only once the job, with the event and its delivery, is in Redis', async () => {
    const payload = responded('evt_stored', 'emoji:👍')
    const answer = await post(web.url, await signed(payload))
    expect(answer.status).toBe(200)
    const job = await web.events.queue.getJob(jobIdFor(keyOf(payload)))
    expect(job?.name).toBe('notification.responded')
    const decoded = fromJobData(job?.data)
    if (!decoded.ok) throw new Error(decoded.message)
    expect(decoded.event).toEqual(payload)
    expect(decoded.delivery).toMatchObject({
      key: keyOf(payload),
      eventId: 'evt_stored',
      signedAt: NOW_S,
      secretIndex: 0,
    })
    expect(decoded.delivery.receivedAt).toBeInstanceOf(Date)
  })

  it('stores one job per event, whatever web process its copies and retries reach', async () => {
    const payload = lifecycle('app.installed')
    // Like the service, each copy is retried until it gets a 2xx (a copy may find the original in flight: 409).
    const copies = await Promise.all(
      Array.from({ length: 10 }, async (_, i) =>
        deliver(await signed(payload), i % 2 ? [web.url, twin.url] : [twin.url]),
      ),
    )
    for (const copy of copies) expect(copy.status).toBe(200)
    const jobs = await web.events.queue.getJobs(['wait'])
    expect(jobs.filter((job) => job?.id === jobIdFor(keyOf(payload)))).toHaveLength(1)
  })

  it('answers gestures inline and keeps them off the queue by default; unknown events go on it', async () => {
    const tap = gesture()
    const answer = await post(web.url, await signed(tap))
    expect(answer.body).toMatchObject({ success: true, vibe: { message: 'Got double_tap' } })
    expect(await web.events.queue.getJob(jobIdFor(keyOf(tap)))).toBeUndefined()

    const future = lifecycle('slot.booked', { slot: 3 })
    expect((await post(web.url, await signed(future))).status).toBe(200)
    const job = await web.events.queue.getJob(jobIdFor(keyOf(future)))
    expect(job?.data.event).toMatchObject({ event: 'slot.booked', slot: 3 })
  })

  it('puts exactly the chosen events on the queue, gestures included when chosen', async () => {
    const chosen = await startWeb({ connection: redis, prefix, name: 'chosen', events: ['gesture'] })
    try {
      const tap = gesture()
      const installed = lifecycle('app.installed')
      const answer = await post(chosen.url, await signed(tap))
      expect(answer.body).toMatchObject({ vibe: { message: 'Got double_tap' } })
      expect((await post(chosen.url, await signed(installed))).status).toBe(200)
      expect(await chosen.events.queue.getJob(jobIdFor(keyOf(tap)))).toBeDefined()
      expect(await chosen.events.queue.getJob(jobIdFor(keyOf(installed)))).toBeUndefined()
    } finally {
      await chosen.close()
    }
  })
})

describe('when Redis cannot take the job', () => {
  it('answers 500 within the deadline so the service retries, and reports the EnqueueError', async () => {
    // Nothing listens on port 1: every connection attempt fails at once.
    const web = await startWeb(
      { connection: { host: '127.0.0.1', port: 1, lazyConnect: true }, prefix: queuePrefix('down'), addTimeoutMs: 200 },
      // A deadline a busy machine cannot reach before the 200 ms add timeout: the 500 (not the
      // deadline's acknowledgement) is what says the failure was answered within it.
      { deadlineMs: 20_000 },
    )
    try {
      const answer = await post(web.url, await signed(responded('evt_down')))
      expect(answer.status).toBe(500)
      expect(answer.body).toMatchObject({ error: { code: 'handler_error' } })
      expect(web.errors.map((error) => error.cause)).toEqual([expect.any(EnqueueError)])
      // The claim was released: the retry is processed again, not answered as a duplicate.
      expect((await post(web.url, await signed(responded('evt_down')))).status).toBe(500)
      expect(web.errors).toHaveLength(2)
    } finally {
      await web.close()
    }
  })
})

describe('configuration', () => {
  it('refuses an add timeout that the receiver deadline would not wait for', async () => {
    const redis = await connectRedis()
    const events = createEventQueue({ connection: redis, prefix: queuePrefix('config'), addTimeoutMs: 1_000 })
    try {
      const receiver = createReceiver({ secret: SECRET, deadlineMs: 1_000, logger: silentLogger })
      expect(() => events.attach(receiver)).toThrow(RinghookConfigError)
      expect(() => events.attach(receiver)).toThrow(/must be under the receiver's deadlineMs/)
      expect(() => createEventQueue({ connection: redis, name: 'a:b' })).toThrow(RinghookConfigError)
      expect(() => createEventQueue({ connection: redis, jobs: { attempts: 0 } })).toThrow(/attempts/)
    } finally {
      await events.close()
      redis.disconnect()
    }
  })

  it('hashes the dedup key into an id BullMQ accepts', () => {
    const id = jobIdFor('app_demo:event:evt_1')
    expect(id).toMatch(/^rh-[0-9a-f]{64}$/)
    expect(jobIdFor('app_demo:event:evt_1')).toBe(id)
    expect(jobIdFor('app_demo:event:evt_2')).not.toBe(id)
  })
})
