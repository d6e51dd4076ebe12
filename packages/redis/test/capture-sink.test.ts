import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { capturedDeliverySchema, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { readRedisCaptures, redisCaptureSink, unauthenticatedStream } from '@ringhook/redis'
import { describe, expect, it } from 'vitest'
import { sharedRedisWithKeys } from '../../../test/redis/support/redis.js'

const secret = 'whsec_redis_capture'
const gesture = (n: number) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: `user_${n}`,
    app_id: 'app_stream',
    timestamp: new Date().toISOString(),
    data: {},
    external_user_id: `person_${n}`,
  })

async function deliver(receiver: ReturnType<typeof createReceiver>, body: string, key = secret) {
  const { headers } = await signWebhook({ secret: key, body })
  return receiver.handle({ method: 'POST', headers, rawBody: body })
}

describe('redisCaptureSink on the shared Redis', () => {
  const shared = sharedRedisWithKeys('capture')
  const stream = () => shared.key()

  it('appends each answered delivery as one entry, in order, that parses as a record', async () => {
    const key = stream()
    const capture = createCapture({ sink: redisCaptureSink({ client: shared.redis, key }), logger: silentLogger })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    receiver.on('gesture', () => vibe('pulse'))
    const accepted = await deliver(receiver, gesture(1))
    await deliver(receiver, gesture(2), 'whsec_wrong')
    await capture.flush()

    // The forgery's record is in a stream of its own.
    const entries = [
      ...(await shared.redis.xrange(key, '-', '+')),
      ...(await shared.redis.xrange(unauthenticatedStream(key), '-', '+')),
    ]
    expect(entries).toHaveLength(2)
    const fields = entries.map(([, values]) => Object.fromEntries(pairs(values)))
    expect(fields.map((f) => [f.event, f.outcome])).toEqual([
      ['gesture', 'accepted'],
      ['', 'refused'],
    ])
    expect(unauthenticatedStream(key)).toBe(`${key}:unauthenticated`)
    const first = capturedDeliverySchema.parse(JSON.parse(fields[0]?.record as string))
    expect(first.answer.body).toBe(accepted.body)
    expect(first.request.body).not.toContain('person_1')
    expect(capture.stats()).toMatchObject({ written: 2, failed: 0 })
  })

  it('trims the stream to about maxLength', async () => {
    const key = stream()
    const sink = redisCaptureSink({ client: shared.redis, key, maxLength: 10 })
    const capture = createCapture({ sink, logger: silentLogger, batchSize: 50 })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    for (let n = 0; n < 600; n++) await deliver(receiver, gesture(100 + n))
    await capture.flush()
    expect(capture.stats().written).toBe(600)
    // MAXLEN ~ trims whole nodes of the stream (100 entries by default): far fewer than 600 remain.
    expect(await shared.redis.xlen(key)).toBeLessThanOrEqual(110)
  })

  it('trims unauthenticated deliveries apart: however many come, authentic records stay', async () => {
    const key = stream()
    const sink = redisCaptureSink({ client: shared.redis, key, maxLength: 1000, unauthenticated: { maxLength: 10 } })
    // Every forgery let through (10 a second by default), to fill their stream.
    const capture = createCapture({ sink, logger: silentLogger, batchSize: 50, unauthenticated: { perSecond: 10_000 } })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    await deliver(receiver, gesture(1))
    for (let n = 0; n < 600; n++) await deliver(receiver, gesture(1000 + n), 'whsec_wrong')
    await deliver(receiver, gesture(2))
    await capture.flush()
    expect(capture.stats().written).toBe(602)
    expect(await shared.redis.xlen(key)).toBe(2)
    expect(await shared.redis.xlen(unauthenticatedStream(key))).toBeLessThanOrEqual(110)
    const read = await readRedisCaptures({ client: shared.redis, stream: key })
    expect(read.filter((record) => record.authentic).map((record) => record.answer.status)).toEqual([200, 200])
    // By the order written: the first genuine one, the forgeries kept, the second genuine one.
    expect(read[0]?.authentic).toBe(true)
    expect(read.at(-1)?.authentic).toBe(true)
  })

  it('refuses a client without xadd', () => {
    expect(() => redisCaptureSink({ client: {} as never })).toThrow(/xadd/)
  })
})

function pairs(values: string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i < values.length; i += 2) out.push([values[i] as string, values[i + 1] as string])
  return out
}
