import { promiseHooks } from 'node:v8'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isThenable } from '../awaitable.js'
import { createMemoryStore } from '../dedup/memory-store.js'
import { silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import type { BodyResult } from './body.js'
import type { Instrumentation } from './instrumentation.js'
import { Lifecycle } from './lifecycle.js'
import { resolveOptions } from './options.js'
import { Pipeline } from './pipeline.js'
import { Registry } from './registry.js'
import type { WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import type { DeliveryInfo } from './types.js'

const secret = 'whsec_fast_path'

async function signed(body: object): Promise<WebhookRequest> {
  const text = JSON.stringify(body)
  const { headers } = await signWebhook({ secret, body: text })
  return { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, rawBody: text }
}

const gesture = (id: number) => ({
  event: 'gesture',
  gesture_type: 'tap',
  user_app_id: `3f1c2a9e-0000-4000-8000-${String(id).padStart(12, '0')}`,
  app_id: 'app_fast',
  timestamp: new Date().toISOString(),
  data: {},
})

function pipelineWith(register: (registry: Registry) => void, instrumentation?: Instrumentation): Pipeline {
  const registry = new Registry()
  register(registry)
  return new Pipeline(
    resolveOptions({ secret, logger: silentLogger, store: createMemoryStore(), instrumentation }),
    registry,
    new Lifecycle(),
  )
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the synchronous fast path', () => {
  // The receiver's speed rests on this: a buffered delivery through the memory store with synchronous
  // handlers is answered without a promise. An `await` added anywhere on the path would remove it silently.
  it('answers a buffered delivery with synchronous handlers without a promise, duplicates included', async () => {
    const pipeline = pipelineWith((registry) => {
      registry.add(['gesture'], () => vibe('tap', 'pulse').message('Got tap'))
      registry.addAny(() => undefined)
    })
    const request = await signed(gesture(1))
    for (const expected of [undefined, 'true']) {
      const response = pipeline.handle(request, {})
      expect(isThenable(response)).toBe(false)
      const { status, headers, body } = response as WebhookResponse
      expect(status).toBe(200)
      expect(headers['x-ringhook-duplicate']).toBe(expected)
      expect(JSON.parse(body)).toMatchObject({ success: true, vibe: { message: 'Got tap' } })
    }
  })

  it('answers refusals without a promise too', async () => {
    const pipeline = pipelineWith(() => {})
    const request = await signed(gesture(2))
    const forged = { ...request, rawBody: (request.rawBody as string).replace('tap', 'swipe_up') }
    const response = pipeline.handle(forged, {})
    expect(isThenable(response)).toBe(false)
    expect((response as WebhookResponse).status).toBe(401)
  })

  it('waits only when something really waits: an async handler', async () => {
    const pipeline = pipelineWith((registry) => registry.add(['gesture'], async () => vibe('tap', 'pulse')))
    const response = pipeline.handle(await signed(gesture(3)), {})
    expect(isThenable(response)).toBe(true)
    expect((await response).status).toBe(200)
  })

  it("answers a streamed delivery in one promise job after its body: one promise besides the reader's", async () => {
    // Each promise is a job V8 queues and runs; a delivery through a Node adapter used to make 5 or 6.
    const pipeline = pipelineWith((registry) => registry.add(['gesture'], () => undefined))
    const streamed = async (count: number) => {
      const requests = await Promise.all(Array.from({ length: count }, (_, i) => signed(gesture(100 + i))))
      const streams = requests.map((request) => {
        const bytes = new TextEncoder().encode(request.rawBody as string)
        return { ...request, rawBody: { readBody: async (): Promise<BodyResult> => ({ ok: true, bytes }) } }
      })
      let created = 0
      const stop = promiseHooks.onInit(() => {
        created += 1
      })
      try {
        const answers = streams.map((request) => pipeline.handle(request, {}))
        // Drained without a promise per delivery, so that the count's fixed part cancels out below.
        await new Promise((resolve) => setImmediate(resolve))
        for (const answer of answers) expect(isThenable(answer)).toBe(true)
      } finally {
        stop()
      }
      return created
    }
    // Each delivery: its reader's promise (an async function here) and the pipeline's one.
    // The test runner makes a promise of its own now and then: the fewest of three runs is the count.
    const fewest = async (count: number) =>
      Math.min(await streamed(count), await streamed(count), await streamed(count))
    expect(((await fewest(30)) - (await fewest(10))) / 20).toBe(2)
  })

  it('reads no clock for instrumentation when none is configured, and stays synchronous with one', async () => {
    const clock = vi.spyOn(performance, 'now')
    const gestureReply = (registry: Registry) => registry.add(['gesture'], () => vibe('tap', 'pulse'))
    const bare = pipelineWith(gestureReply)
    const request = await signed(gesture(4))
    clock.mockClear()
    for (let i = 0; i < 2; i++) expect(isThenable(bare.handle(request, {}))).toBe(false)
    expect(clock).not.toHaveBeenCalled()

    // An observer that wraps the handlers synchronously keeps the path free of promises.
    const seen: string[] = []
    const observed = pipelineWith(gestureReply, {
      delivery: () => ({
        runHandlers: (run) => run(),
        handled: (ok) => void seen.push(`handled ${ok}`),
        end: (status, outcome) => void seen.push(`${status} ${outcome}`),
      }),
    })
    for (let i = 0; i < 2; i++) expect(isThenable(observed.handle(request, {}))).toBe(false)
    expect(seen).toEqual(['handled true', '200 ok', '200 duplicate'])
    expect(clock).toHaveBeenCalled()
  })

  it('builds the delivery info, and its Date, only for a handler that reads it, with what the delivery carried', async () => {
    const receivedAt = Date.now()
    let dates = 0
    vi.stubGlobal(
      'Date',
      class CountingDate extends Date {
        constructor(...args: ConstructorParameters<typeof Date>) {
          super(...args)
          dates += 1
        }
      },
    )
    try {
      const seen: DeliveryInfo[] = []
      const registry = new Registry()
      registry.add(['gesture'], () => undefined)
      registry.add(['notification.responded'], (_event, context) => {
        seen.push(context.delivery)
        expect(context.delivery).toBe(seen[0]) // built once, then the same object
      })
      const pipeline = new Pipeline(
        resolveOptions({ secret, logger: silentLogger, store: createMemoryStore(), now: () => receivedAt }),
        registry,
        new Lifecycle(),
      )
      const quiet = await signed(gesture(5))
      dates = 0
      pipeline.handle(quiet, {})
      expect(dates).toBe(0)

      const responded = {
        event: 'notification.responded',
        user_app_id: '3f1c2a9e-0000-4000-8000-000000000006',
        app_id: 'app_fast',
        timestamp: new Date(receivedAt).toISOString(),
        data: { event_id: 'evt_lazy_1', response: 'yes' },
      }
      const request = await signed(responded)
      dates = 0
      expect((pipeline.handle(request, {}) as WebhookResponse).status).toBe(200)
      expect(dates).toBe(1)
      expect(seen).toHaveLength(1)
      const [info] = seen as [DeliveryInfo]
      expect(info).toMatchObject({
        key: 'v2:["notification.responded","app_fast","evt_lazy_1"]',
        eventId: 'evt_lazy_1',
        secretIndex: 0,
      })
      expect(Math.abs(info.signedAt - receivedAt / 1000)).toBeLessThan(5) // the signed header, in seconds
      expect(info.receivedAt.getTime()).toBe(receivedAt)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
