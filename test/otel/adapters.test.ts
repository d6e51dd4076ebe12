// The span tree and the metrics of each kind of delivery, over real HTTP, on every adapter of the
// conformance suite: what an operator sees with an OpenTelemetry SDK registered.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { createReceiver, type Receiver, silentLogger, vibe } from '@ringhook/core'
import { otelInstrumentation } from '@ringhook/otel'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { adapters, type Mounted } from '../conformance/adapters.js'
import { gesture, NOW_MS, NOW_S, post, SECRET, signed } from '../support/events.js'
import { gate } from '../support/gate.js'
import { capture, summary } from './support/capture.js'

const telemetry = capture()
afterAll(() => telemetry.shutdown())

const NEW_SECRET = 'whsec_otel_rotated_in'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let lingering = gate()

/**
 * Gestures are answered with a vibe by a handler that opens a span of its own after an await, as a
 * handler's database call would. `explode` fails; `linger` outlives the 250 ms deadline: it is held
 * on `lingering` until the test has the answer.
 */
function instrumentedReceiver(): Receiver {
  const receiver = createReceiver({
    secret: [NEW_SECRET, SECRET],
    now: () => NOW_MS,
    logger: silentLogger,
    deadlineMs: 250,
    instrumentation: otelInstrumentation({
      route: '/webhooks',
      tracerProvider: telemetry.tracerProvider,
      meterProvider: telemetry.meterProvider,
    }),
  })
  const app = telemetry.tracerProvider.getTracer('app')
  receiver.on('gesture', async (event) => {
    await sleep(1)
    return app.startActiveSpan('app.save', async (span) => {
      try {
        if (event.gesture_type === 'linger') await lingering.promise
        if (event.gesture_type === 'explode') throw new Error('database down')
        return vibe('tap')
      } finally {
        span.end()
      }
    })
  })
  return receiver
}

const deliverySpans = () => telemetry.spans().filter((span) => span.instrumentationScope.name === '@ringhook/otel')
const appSpans = () => telemetry.spans().filter((span) => span.name === 'app.save')

function onlyDeliverySpan(): ReadableSpan {
  const spans = deliverySpans()
  expect(spans).toHaveLength(1)
  return spans[0] as ReadableSpan
}

/** The handler's span is the delivery span's child, in its trace. */
function expectChildOf(child: ReadableSpan | undefined, parent: ReadableSpan): void {
  expect(child?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId)
  expect(child?.spanContext().traceId).toBe(parent.spanContext().traceId)
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await sleep(10)
  if (!check()) throw new Error(`timed out waiting for ${what}`)
}

describe.each(adapters)('OpenTelemetry on $name', (adapter) => {
  let mounted: Mounted
  beforeAll(async () => {
    mounted = await adapter.mount(instrumentedReceiver())
  })
  afterAll(() => mounted.close())
  beforeEach(async () => {
    telemetry.reset()
    await telemetry.metrics()
  })

  it('traces a valid gesture as a SERVER span whose child is the handler’s own span', async () => {
    const response = await post(mounted.url, await signed(gesture()))
    expect(response.status).toBe(200)
    const span = onlyDeliverySpan()
    expect(span.name).toBe('POST /webhooks')
    expect(span.kind).toBe(SpanKind.SERVER)
    expect(span.parentSpanContext).toBeUndefined()
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/webhooks',
      'http.response.status_code': 200,
      'ringhook.secret_index': 1,
      'ringhook.event': 'gesture',
      'ringhook.dedup_key.hash': expect.stringMatching(/^[0-9a-f]{16}$/),
      'ringhook.duplicate': false,
      'ringhook.handler.duration': expect.any(Number),
      'ringhook.deadline_reached': false,
      'ringhook.outcome': 'ok',
    })
    expectChildOf(appSpans()[0], span)
    expect(summary(await telemetry.metrics())).toEqual([
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=ok} 1',
      'ringhook.handler.duration {ringhook.event=gesture,ringhook.handler.outcome=ok} 1',
    ])
  })

  it('traces a refused signature without running a handler, and counts it by reason', async () => {
    const response = await post(mounted.url, await signed(gesture(), { secret: 'whsec_forged' }))
    expect(response.status).toBe(401)
    const span = onlyDeliverySpan()
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/webhooks',
      'http.response.status_code': 401,
      'ringhook.verification.reason': 'signature_mismatch',
      'ringhook.outcome': 'unauthorized',
    })
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(appSpans()).toEqual([])
    expect(summary(await telemetry.metrics())).toEqual([
      'ringhook.deliveries {ringhook.outcome=unauthorized} 1',
      'ringhook.verification.failures {ringhook.verification.reason=signature_mismatch} 1',
    ])
  })

  it('traces a duplicate as the replay of the first delivery, with the same key hash', async () => {
    const payload = gesture()
    expect((await post(mounted.url, await signed(payload))).status).toBe(200)
    const first = onlyDeliverySpan()
    telemetry.reset()
    await telemetry.metrics()
    // The service's retry: the same payload, signed again later.
    const retry = await post(mounted.url, await signed(payload, { timestamp: NOW_S + 5 }))
    expect(retry.headers.get('x-ringhook-duplicate')).toBe('true')
    const span = onlyDeliverySpan()
    expect(span.attributes).toMatchObject({
      'ringhook.duplicate': true,
      'ringhook.outcome': 'duplicate',
      'ringhook.dedup_key.hash': first.attributes['ringhook.dedup_key.hash'],
    })
    expect(span.attributes['ringhook.handler.duration']).toBeUndefined()
    expect(appSpans()).toEqual([])
    expect(summary(await telemetry.metrics())).toEqual([
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=duplicate} 1',
      'ringhook.duplicates {ringhook.duplicate.state=replayed,ringhook.event=gesture} 1',
    ])
  })

  it('traces a handler failure as an ERROR span, the handler’s span still its child', async () => {
    const response = await post(mounted.url, await signed(gesture({ gesture_type: 'explode' })))
    expect(response.status).toBe(500)
    const span = onlyDeliverySpan()
    expect(span.status.code).toBe(SpanStatusCode.ERROR)
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 500,
      'error.type': 'handler_error',
      'ringhook.outcome': 'handler_error',
    })
    expectChildOf(appSpans()[0], span)
    expect(summary(await telemetry.metrics())).toEqual([
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=handler_error} 1',
      'ringhook.handler.duration {ringhook.event=gesture,ringhook.handler.outcome=failed} 1',
    ])
  })

  it('traces a deadline acknowledgement, and measures the handler when it finishes after the answer', async () => {
    lingering = gate()
    const response = await post(mounted.url, await signed(gesture({ gesture_type: 'linger' })))
    expect(response.status).toBe(200)
    const span = onlyDeliverySpan()
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 200,
      'ringhook.deadline_reached': true,
      'ringhook.deadline.action': 'acknowledge',
      'ringhook.outcome': 'ok',
    })
    expect(span.attributes['ringhook.handler.duration']).toBeUndefined()
    expect(summary(await telemetry.metrics())).toEqual([
      'ringhook.deadline.reached {ringhook.deadline.action=acknowledge,ringhook.event=gesture} 1',
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=ok} 1',
    ])
    // The handler goes on after the answer, its span still the delivery's child.
    lingering.open()
    await until('the lingering handler', () => appSpans().length === 1)
    expectChildOf(appSpans()[0], span)
    // Its duration is recorded in the promise jobs that follow its return.
    await new Promise((resolve) => setImmediate(resolve))
    const late = await telemetry.metrics()
    expect(summary(late)).toEqual(['ringhook.handler.duration {ringhook.event=gesture,ringhook.handler.outcome=ok} 1'])
  })
})
