// The receiver's guarantees under volume, hostile payloads, failing handlers and floods of forged
// requests, each written against a way it was once broken.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_DEDUP_KEY_LENGTH } from '../dedup/key.js'
import { createMemoryStore } from '../dedup/memory-store.js'
import type { DedupStore } from '../dedup/store.js'
import { RinghookConfigError, type RinghookError } from '../errors.js'
import type { Logger } from '../logger.js'
import { silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import { createReceiver } from './create-receiver.js'
import type { WebhookRequest } from './request.js'

const secret = 'whsec_guarantees'
const nowMs = 1_800_000_000_000
const base = { secret, now: () => nowMs, logger: silentLogger }

let counter = 0
const gesture = (extra: Record<string, unknown> = {}) => ({
  event: 'gesture',
  gesture_type: 'tap',
  user_app_id: 'user_1',
  app_id: 'app_1',
  timestamp: new Date(nowMs + ++counter).toISOString(),
  data: {},
  ...extra,
})
const responded = (eventId: string, extra: Record<string, unknown> = {}) => ({
  ...gesture({ gesture_type: undefined }),
  event: 'notification.responded',
  data: { event_id: eventId, response: 'yes' },
  ...extra,
})

async function request(payload: unknown, options: { secret?: string; at?: number } = {}): Promise<WebhookRequest> {
  const body = JSON.stringify(payload)
  const { headers } = await signWebhook({
    secret: options.secret ?? secret,
    body,
    timestamp: options.at ?? nowMs / 1000,
  })
  return { method: 'POST', headers, rawBody: body }
}

describe('deduplication under volume', () => {
  // 20,000 signed deliveries are CPU-bound: 21.8 s once, past the default 20 s, in a whole-suite run
  // beside two busy loops on two cores.
  it('recognises a replayed response and a retried gesture after 20 000 other deliveries', {
    timeout: 120_000,
  }, async () => {
    const calls = { responded: 0, gesture: 0 }
    const receiver = createReceiver(base)
      .on('notification.responded', () => void calls.responded++)
      .on('gesture', (event) => {
        calls.gesture++
        return vibe('tap').message(`for ${event.user_app_id}`)
      })
    const answer = responded('evt_replayed')
    const retried = gesture({ user_app_id: 'user_retried' })
    expect((await receiver.handle(await request(answer))).status).toBe(200)
    const first = await receiver.handle(await request(retried))
    for (let i = 0; i < 20_000; i++) {
      await receiver.handle(await request(gesture({ user_app_id: `user_${i}` })))
    }
    const replay = await receiver.handle(await request(answer, { at: nowMs / 1000 + 200 }))
    const retry = await receiver.handle(await request(retried, { at: nowMs / 1000 + 36 }))
    expect(replay.headers['x-ringhook-duplicate']).toBe('true')
    expect(retry.headers['x-ringhook-duplicate']).toBe('true')
    expect(retry.body).toBe(first.body)
    expect(calls).toEqual({ responded: 1, gesture: 20_001 })
  })

  it("with whenFull 'refuse': answers 503 store_full with Retry-After when the store is full of live deliveries, and says which option to raise", async () => {
    const lines: string[] = []
    const logger: Logger = { ...silentLogger, warn: (_fields, message) => void lines.push(message ?? '') }
    const store = createMemoryStore({ maxBytes: 16 * 1024, now: () => nowMs, whenFull: 'refuse', logger: silentLogger })
    let calls = 0
    const receiver = createReceiver({ ...base, logger, store }).on('gesture', () => void calls++)
    const kept = gesture()
    expect((await receiver.handle(await request(kept))).status).toBe(200)
    let response = await receiver.handle(await request(gesture()))
    for (let i = 0; i < 1000 && response.status === 200; i++) response = await receiver.handle(await request(gesture()))
    expect(response.status).toBe(503)
    expect(response.headers['retry-after']).toBe('1')
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'store_full' } })
    expect(lines.some((line) => line.includes('maxBytes'))).toBe(true)
    const handled = calls
    // The first delivery is still remembered: its retry is answered from the store.
    const retry = await receiver.handle(await request(kept))
    expect(retry.headers['x-ringhook-duplicate']).toBe('true')
    expect(calls).toBe(handled)
  })
})

describe('dedup keys', () => {
  it('answers a gesture carrying the event_id of an earlier response with its own vibe', async () => {
    const receiver = createReceiver(base).on('gesture', () => vibe('pulse'))
    await receiver.handle(await request(responded('evt_shared')))
    const response = await receiver.handle(await request(gesture({ data: { event_id: 'evt_shared' } })))
    expect(response.headers['x-ringhook-duplicate']).toBeUndefined()
    expect(JSON.parse(response.body)).toEqual({ success: true, vibe: { sequence: [{ type: 'pulse' }] } })
  })

  it("never gives a user another user's vibe, whatever their gestures' data carries", async () => {
    const receiver = createReceiver(base).on('gesture', (event) => vibe('tap').message(`for ${event.user_app_id}`))
    const timestamp = new Date(nowMs).toISOString()
    const data = { event_id: 'evt_same' }
    const first = await receiver.handle(await request(gesture({ user_app_id: 'ada', timestamp, data })))
    const second = await receiver.handle(await request(gesture({ user_app_id: 'bob', timestamp, data })))
    expect(JSON.parse(first.body).vibe.message).toBe('for ada')
    expect(JSON.parse(second.body).vibe.message).toBe('for bob')
  })

  it('stores a 60 KB event_id under a key of bounded size', async () => {
    const keys: string[] = []
    const memory = createMemoryStore()
    const store: DedupStore = {
      claim: (key, ttl) => {
        keys.push(key)
        return memory.claim(key, ttl)
      },
      complete: (...args) => memory.complete(...args),
      release: (...args) => memory.release(...args),
    }
    const receiver = createReceiver({ ...base, store, maxBodyBytes: 256 * 1024 }).on('notification.responded', () => {})
    for (let i = 0; i < 50; i++) await receiver.handle(await request(responded(`${i}${'e'.repeat(60_000)}`)))
    expect(keys).toHaveLength(50)
    expect(new Set(keys).size).toBe(50)
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(MAX_DEDUP_KEY_LENGTH)
    // Each remembered delivery costs a few hundred bytes, not the 60 KB of its id.
    expect(memory.bytes / memory.size).toBeLessThan(1024)
  })
})

describe('several handlers for one event', () => {
  let escaped: unknown[] = []
  const record = (reason: unknown) => void escaped.push(reason)
  beforeEach(() => {
    escaped = []
    process.on('unhandledRejection', record)
  })
  afterEach(() => {
    process.off('unhandledRejection', record)
  })

  it('waits for every handler, reports every failure, and leaves no rejection unobserved', async () => {
    const errors: RinghookError[] = []
    let finished = false
    const receiver = createReceiver(base)
      .on('app.installed', async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        finished = true
        throw new Error('rejects later')
      })
      .on('app.installed', () => {
        throw new Error('throws at once')
      })
      .onError((error) => void errors.push(error))
    const response = await receiver.handle(await request(gesture({ event: 'app.installed', gesture_type: undefined })))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(response.status).toBe(500)
    expect(finished).toBe(true)
    expect(errors.map((error) => (error.cause as Error).message)).toEqual(['rejects later', 'throws at once'])
    expect(escaped).toEqual([])
  })

  it('still runs the handlers registered after one that throws, and fails the delivery', async () => {
    const ran: string[] = []
    const receiver = createReceiver(base)
      .on('gesture', () => {
        ran.push('first')
        throw new Error('broken')
      })
      .on('gesture', () => {
        ran.push('second')
        return vibe('tap')
      })
      .onAny(() => void ran.push('any'))
    const response = await receiver.handle(await request(gesture()))
    expect(response.status).toBe(500)
    expect(ran).toEqual(['first', 'second', 'any'])
  })
})

describe('the synchronous path', () => {
  it('runs a synchronous handler before handle() returns, for a buffered body and the memory store', async () => {
    let calls = 0
    const receiver = createReceiver(base).on('gesture', () => void calls++)
    const pending = receiver.handle(await request(gesture()))
    expect(calls).toBe(1)
    expect((await pending).status).toBe(200)
  })
})

describe('logs of refused requests', () => {
  it('writes at most the limit per interval for 20 000 forged requests, and counts the rest', async () => {
    let now = nowMs
    const lines: Array<{ fields: Record<string, unknown>; message: string | undefined }> = []
    const logger: Logger = { ...silentLogger, warn: (fields, message) => void lines.push({ fields, message }) }
    const receiver = createReceiver({ ...base, now: () => now, logger })
    const forged = await request(gesture(), { secret: 'whsec_forged' })
    for (let i = 0; i < 20_000; i++) expect((await receiver.handle(forged)).status).toBe(401)
    expect(lines).toHaveLength(10)
    // The next interval: its first line comes after the count of what the last one held back.
    now += 60_000
    await receiver.handle(forged)
    expect(lines[10]?.fields).toEqual({ suppressed: { unauthorized: 19_990 }, total: 19_990 })
    expect(lines[10]?.message).toMatch(/logLimit/)
    expect(lines).toHaveLength(12)
    const bytes = lines.reduce((sum, line) => sum + JSON.stringify(line).length, 0)
    expect(bytes).toBeLessThan(8 * 1024)
  })

  it('counts what it held back when the receiver closes', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger: Logger = { ...silentLogger, warn: (fields) => void lines.push(fields) }
    const receiver = createReceiver({ ...base, logger, logLimit: { lines: 2 } })
    const forged = await request(gesture(), { secret: 'whsec_forged' })
    for (let i = 0; i < 5; i++) await receiver.handle(forged)
    await receiver.close({ timeoutMs: 0 })
    expect(lines.at(-1)).toEqual({ suppressed: { unauthorized: 3 }, total: 3 })
  })

  it('writes every line with logLimit: false', async () => {
    let count = 0
    const logger: Logger = { ...silentLogger, warn: () => void count++ }
    const receiver = createReceiver({ ...base, logger, logLimit: false })
    const forged = await request(gesture(), { secret: 'whsec_forged' })
    for (let i = 0; i < 50; i++) await receiver.handle(forged)
    expect(count).toBe(50)
  })
})

describe('configuration mistakes', () => {
  it.each([
    ['a negative tolerance', { toleranceSeconds: -1 }],
    ['a NaN tolerance', { toleranceSeconds: Number.NaN }],
    ['an infinite body limit', { maxBodyBytes: Number.POSITIVE_INFINITY }],
    ['a zero deadline', { deadlineMs: 0 }],
    ['a deadline of 30 s', { deadlineMs: 30_000 }],
    ['a negative in-flight ttl', { dedup: { inFlightTtlMs: -5 } }],
    ['a NaN completed ttl', { dedup: { completedTtlMs: Number.NaN } }],
    ['a fractional log limit', { logLimit: { lines: 1.5 } }],
    ['a zero log interval', { logLimit: { intervalMs: 0 } }],
    ['an empty secret', { secret: '' }],
  ])('throws RinghookConfigError for %s', (_name, override) => {
    expect(() => createReceiver({ ...base, ...override } as never)).toThrow(RinghookConfigError)
  })

  it('throws RinghookConfigError for a bad store budget and a bad close timeout', async () => {
    expect(() => createMemoryStore({ maxBytes: -1 })).toThrow(RinghookConfigError)
    await expect(createReceiver(base).close({ timeoutMs: -1 })).rejects.toThrow(RinghookConfigError)
  })

  it('remembers deliveries longer when the tolerance is wider, and warns of a ttl shorter than the window', () => {
    expect(createReceiver(base).options.completedTtlMs).toBe(15 * 60_000)
    expect(createReceiver({ ...base, toleranceSeconds: 900 }).options.completedTtlMs).toBe((2 * 900 + 300) * 1000)
    const warnings: string[] = []
    const logger: Logger = { ...silentLogger, warn: (_fields, message) => void warnings.push(message ?? '') }
    createReceiver({ ...base, logger, dedup: { completedTtlMs: 60_000 } })
    expect(warnings).toEqual([expect.stringMatching(/completedTtlMs is shorter/)])
  })
})
