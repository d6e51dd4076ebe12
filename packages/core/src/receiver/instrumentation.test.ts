import { AsyncLocalStorage } from 'node:async_hooks'
import { describe, expect, it } from 'vitest'
import { gate } from '../../../../test/support/gate.js'
import { createMemoryStore } from '../dedup/memory-store.js'
import type { DedupStore } from '../dedup/store.js'
import { RinghookConfigError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import { createReceiver } from './create-receiver.js'
import type { DeliveryObserver, Instrumentation } from './instrumentation.js'
import type { ReceiverOptions } from './options.js'
import type { WebhookRequest } from './request.js'

const SECRET = 'whsec_instrumented'
const OLD_SECRET = 'whsec_instrumented_old'

let sent = 0
async function gesture(options: { secret?: string; method?: string } = {}): Promise<WebhookRequest> {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'user-7',
    app_id: 'app_obs',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: options.secret ?? SECRET, body })
  return { method: options.method ?? 'POST', headers, rawBody: body }
}

/** An instrumentation that writes down every stage it hears of, durations as their type. */
function recorder() {
  const calls: string[][] = []
  const instrumentation: Instrumentation = {
    delivery: (request) => {
      const log: string[] = [`delivery ${request.method}`]
      calls.push(log)
      const observer: Required<DeliveryObserver> = {
        verified: (result) => void log.push(result.ok ? `verified ${result.secretIndex}` : `refused ${result.reason}`),
        accepted: (event, key) => void log.push(`accepted ${event} ${key.length > 0}`),
        claimed: (outcome, ms) => void log.push(`claimed ${outcome} ${typeof ms}`),
        runHandlers: (run) => {
          log.push('runHandlers')
          return run()
        },
        handled: (ok, ms) => void log.push(`handled ${ok} ${ms >= 0}`),
        deadline: (action) => void log.push(`deadline ${action}`),
        settled: (operation, ok, ms) => void log.push(`settled ${operation} ${ok} ${typeof ms}`),
        end: (status, outcome) => void log.push(`end ${status} ${outcome}`),
      }
      return observer
    },
  }
  return { calls, instrumentation }
}

function receiverWith(options: Partial<ReceiverOptions> = {}) {
  const { calls, instrumentation } = recorder()
  const receiver = createReceiver({ secret: [SECRET, OLD_SECRET], logger: silentLogger, instrumentation, ...options })
  return { receiver, calls }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('instrumentation', () => {
  it('hears every stage of a valid delivery, then of its duplicate', async () => {
    const { receiver, calls } = receiverWith()
    receiver.on('gesture', () => vibe('tap'))
    const request = await gesture({ secret: OLD_SECRET })
    expect((await receiver.handle(request)).status).toBe(200)
    expect((await receiver.handle(request)).status).toBe(200)
    expect(calls).toEqual([
      [
        'delivery POST',
        'verified 1',
        'accepted gesture true',
        'claimed claimed undefined',
        'runHandlers',
        'handled true true',
        'settled complete true undefined',
        'end 200 ok',
      ],
      ['delivery POST', 'verified 1', 'accepted gesture true', 'claimed completed undefined', 'end 200 duplicate'],
    ])
  })

  it('hears why a delivery was refused', async () => {
    const { receiver, calls } = receiverWith()
    await receiver.handle(await gesture({ secret: 'whsec_forged' }))
    await receiver.handle(await gesture({ method: 'GET' }))
    expect(calls).toEqual([
      ['delivery POST', 'refused signature_mismatch', 'end 401 unauthorized'],
      ['delivery GET', 'end 405 method_not_allowed'],
    ])
  })

  it('hears a handler failure, and a duplicate arriving while the first is in progress', async () => {
    const { receiver, calls } = receiverWith()
    // The first run fails only once the copy has been answered.
    const answered = gate()
    receiver.on('gesture', async () => {
      await answered.promise
      throw new Error('database down')
    })
    const request = await gesture()
    const first = receiver.handle(request)
    const second = await receiver.handle(request)
    answered.open()
    expect([(await first).status, second.status]).toEqual([500, 409])
    expect(calls[1]).toEqual([
      'delivery POST',
      'verified 0',
      'accepted gesture true',
      'claimed in_flight undefined',
      'end 409 delivery_in_progress',
    ])
    expect(calls[0]?.slice(3)).toEqual([
      'claimed claimed undefined',
      'runHandlers',
      'handled false true',
      'settled release true undefined',
      'end 500 handler_error',
    ])
  })

  it('hears the deadline, and the handlers that finish after the answer', async () => {
    for (const onDeadline of ['acknowledge', 'retry'] as const) {
      const { receiver, calls } = receiverWith({ deadlineMs: 40, onDeadline })
      // Held until the answer is in: it can only have come at the deadline.
      const held = gate()
      const done = gate()
      receiver.on('gesture', async () => {
        await held.promise
        done.open()
      })
      const response = await receiver.handle(await gesture())
      expect(response.status).toBe(onDeadline === 'acknowledge' ? 200 : 503)
      expect(calls[0]?.slice(-2)).toEqual([
        `deadline ${onDeadline}`,
        `end ${response.status} ${onDeadline === 'acknowledge' ? 'ok' : 'deadline_exceeded'}`,
      ])
      held.open()
      await done.promise
      // The claim is settled in the promise jobs that follow the handler's.
      await new Promise((resolve) => setImmediate(resolve))
      expect(calls[0]?.slice(-2)).toEqual(['handled true true', 'settled complete true undefined'])
    }
  })

  it('times a store that answers with a promise, and not one that answers within the call', async () => {
    const memory = createMemoryStore()
    const remote: DedupStore = {
      claim: async (...args) => memory.claim(...args),
      complete: async (...args) => memory.complete(...args),
      release: async (...args) => memory.release(...args),
    }
    const { receiver, calls } = receiverWith({ store: remote })
    receiver.on('gesture', () => undefined)
    await receiver.handle(await gesture())
    expect(calls[0]).toContain('claimed claimed number')
    expect(calls[0]).toContain('settled complete true number')
  })

  it('hears a store that fails', async () => {
    const broken: DedupStore = {
      claim: () => Promise.reject(new Error('connection refused')),
      complete: () => undefined,
      release: () => undefined,
    }
    const { receiver, calls } = receiverWith({ store: broken })
    expect((await receiver.handle(await gesture())).status).toBe(503)
    expect(calls[0]?.slice(-2)).toEqual(['claimed error number', 'end 503 store_unavailable'])
  })

  it('runs the handlers inside runHandlers, so their async continuations keep its context', async () => {
    const storage = new AsyncLocalStorage<string>()
    const seen: Array<string | undefined> = []
    const receiver = createReceiver({
      secret: SECRET,
      logger: silentLogger,
      instrumentation: { delivery: () => ({ runHandlers: (run) => storage.run('delivery span', run) }) },
    })
    receiver.on('gesture', async () => {
      seen.push(storage.getStore())
      await sleep(5)
      seen.push(storage.getStore())
    })
    expect((await receiver.handle(await gesture())).status).toBe(200)
    expect(seen).toEqual(['delivery span', 'delivery span'])
  })

  it('answers as usual when the observer fails at the end, and 500 when it fails on the way', async () => {
    const failing = (stage: keyof DeliveryObserver): Instrumentation => ({
      delivery: () => ({
        [stage]: () => {
          throw new Error('instrumentation bug')
        },
      }),
    })
    const ending = createReceiver({ secret: SECRET, logger: silentLogger, instrumentation: failing('end') })
    expect((await ending.handle(await gesture())).status).toBe(200)
    const claiming = createReceiver({ secret: SECRET, logger: silentLogger, instrumentation: failing('claimed') })
    expect((await claiming.handle(await gesture())).status).toBe(500)
  })

  it('refuses an instrumentation without a delivery method', () => {
    expect(() => createReceiver({ secret: SECRET, instrumentation: {} as unknown as Instrumentation })).toThrowError(
      RinghookConfigError,
    )
  })
})

describe('the outcome told to end()', () => {
  it('is what the stage that answered recorded, internal_error for a failure outside the handlers', async () => {
    const ends: string[] = []
    let observerFails = false
    const instrumentation: Instrumentation = {
      delivery: () => ({
        accepted: () => {
          if (observerFails) throw new Error('instrumentation bug')
        },
        end: (status, outcome) => void ends.push(`${status} ${outcome}`),
      }),
    }
    const receiver = createReceiver({ secret: SECRET, logger: silentLogger, instrumentation, maxBodyBytes: 2048 })
    receiver.on('gesture', () => {
      throw new Error('handler bug')
    })
    const valid = await gesture()
    await receiver.handle({ ...valid, headers: { ...valid.headers, 'content-type': 'text/plain' } })
    await receiver.handle({ ...valid, headers: { ...valid.headers, 'content-length': '4096' } })
    await receiver.handle(valid)
    observerFails = true
    await receiver.handle(await gesture())
    expect(ends).toEqual([
      '415 unsupported_media_type',
      '413 payload_too_large',
      '500 handler_error',
      '500 internal_error',
    ])
  })
})
