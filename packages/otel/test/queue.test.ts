import { createServer } from 'node:http'
import { SpanKind } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { createEventQueue, createWorker } from '@ringhook/bullmq'
import { createReceiver, silentLogger } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen } from '../../../test/conformance/adapters.js'
import { capture, summary } from '../../../test/otel/support/capture.js'
import { leaks } from '../../../test/otel/support/scan.js'
import { FAST_LOCKS, queuePrefix } from '../../../test/queue/support/queue.js'
import { poll } from '../../../test/redis/support/poll.js'
import { connectRedis, dropPrefix } from '../../../test/redis/support/redis.js'
import { NOW_MS, post, responded, SECRET, signed } from '../../../test/support/events.js'
import { otelInstrumentation, otelQueueInstrumentation } from '../src/index.js'

const telemetry = capture()
const providers = { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider }
const prefix = queuePrefix('otel')
let redis: Redis

beforeAll(async () => {
  redis = await connectRedis()
})
afterAll(async () => {
  await telemetry.shutdown()
  await dropPrefix(redis, `${prefix}:`)
  redis.disconnect()
})

const byName = (name: string) => telemetry.spans().find((span) => span.name === name) as ReadableSpan
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

describe('otelQueueInstrumentation', () => {
  it('continues the delivery’s trace through the queue into the worker’s handler, and times both halves', async () => {
    const instrumentation = otelQueueInstrumentation(providers)
    const receiver = createReceiver({
      secret: SECRET,
      logger: silentLogger,
      now: () => NOW_MS,
      instrumentation: otelInstrumentation(providers),
    })
    const events = createEventQueue({ connection: redis, prefix, name: 'otel', instrumentation })
    events.attach(receiver)
    const worker = createWorker({
      connection: redis,
      prefix,
      name: 'otel',
      logger: silentLogger,
      instrumentation,
      ...FAST_LOCKS,
    })
    const app = telemetry.tracerProvider.getTracer('app')
    worker.on('notification.responded', () => app.startActiveSpan('app.save', (span) => span.end()))
    const mounted = await listen(createServer(ringhook(receiver)))
    try {
      const delivery = await signed(responded('evt_queued_otel'))
      expect((await post(mounted.url, delivery)).status).toBe(200)
      await poll('the worker ran the handler', async () =>
        telemetry.spans().some((s) => s.name === 'app.save') ? true : undefined,
      )
      await poll('the run ended', async () =>
        telemetry.spans().some((s) => s.name === 'process otel') ? true : undefined,
      )

      const received = byName('POST')
      const send = byName('send otel')
      const process = byName('process otel')
      const handler = byName('app.save')
      expect(send.kind).toBe(SpanKind.PRODUCER)
      expect(process.kind).toBe(SpanKind.CONSUMER)
      expect(parentOf(send)).toBe(received.spanContext().spanId)
      expect(parentOf(process)).toBe(send.spanContext().spanId)
      expect(parentOf(handler)).toBe(process.spanContext().spanId)
      const traces = new Set([received, send, process, handler].map((span) => span.spanContext().traceId))
      expect(traces.size).toBe(1)
      expect(process.attributes).toEqual({
        'messaging.system': 'bullmq',
        'messaging.operation.name': 'process',
        'messaging.operation.type': 'process',
        'messaging.destination.name': 'otel',
        'messaging.message.id': expect.stringMatching(/^rh-[0-9a-f]{64}$/),
        'ringhook.event': 'notification.responded',
        'ringhook.job.attempt': 1,
      })

      const metrics = await telemetry.metrics()
      expect(summary(metrics).filter((line) => line.startsWith('ringhook.queue'))).toEqual([
        'ringhook.queue.enqueue.duration {messaging.destination.name=otel,ringhook.event=notification.responded} 1',
        'ringhook.queue.process.duration {messaging.destination.name=otel,ringhook.event=notification.responded,ringhook.job.outcome=ok} 1',
      ])
      expect(leaks(telemetry.spans(), metrics, [delivery], [SECRET])).toEqual([])
    } finally {
      await mounted.close()
      await worker.close({ timeoutMs: 1_000 })
      await events.close()
    }
  })
})
