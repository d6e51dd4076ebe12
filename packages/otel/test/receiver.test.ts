import { createServer } from 'node:http'
import { context, metrics, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api'
import { createReceiver, type Receiver, type ReceiverOptions, silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listen, type Mounted } from '../../../test/conformance/adapters.js'
import { capture, summary } from '../../../test/otel/support/capture.js'
import { until } from '../../../test/reliability/support.js'
import { otelInstrumentation } from '../src/index.js'

const SECRET = 'whsec_otel_unit'
const telemetry = capture()
afterAll(() => telemetry.shutdown())
const providers = { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider }

let sent = 0
async function gesture(headers: Record<string, string> = {}) {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'user-otel-unit',
    app_id: 'app_otel_unit',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const signed = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers: { ...signed.headers, ...headers }, body }
}

function receiverWith(options: Partial<ReceiverOptions>): Receiver {
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger, ...options })
  receiver.on('gesture', () => undefined)
  return receiver
}

const ours = () => telemetry.spans().filter((span) => span.instrumentationScope.name === '@ringhook/otel')

const open: Mounted[] = []
beforeEach(async () => {
  telemetry.reset()
  await telemetry.metrics()
})
afterEach(async () => {
  await Promise.all(open.splice(0).map((mounted) => mounted.close()))
})

describe('otelInstrumentation', () => {
  it('nests the delivery span, as INTERNAL, under the HTTP server span of an instrumented server', async () => {
    const receiver = receiverWith({ instrumentation: otelInstrumentation(providers) })
    const webhooks = ringhook(receiver)
    const http = telemetry.tracerProvider.getTracer('instrumentation-http')
    // What @opentelemetry/instrumentation-http does: a SERVER span active while the listener runs.
    const mounted = await listen(
      createServer((request, response) => {
        const span = http.startSpan('POST', { kind: SpanKind.SERVER })
        response.on('finish', () => span.end())
        context.with(trace.setSpan(context.active(), span), () => webhooks(request, response))
      }),
    )
    open.push(mounted)
    const { method, headers, body } = await gesture()
    expect((await fetch(mounted.url, { method, headers, body })).status).toBe(200)
    // The server span ends once the response has finished, which the client may see first.
    const serverSpan = () => telemetry.spans().find((span) => span.instrumentationScope.name === 'instrumentation-http')
    await until(() => serverSpan() !== undefined)
    const [delivery] = ours()
    const server = serverSpan()
    expect(delivery?.name).toBe('ringhook.delivery')
    expect(delivery?.kind).toBe(SpanKind.INTERNAL)
    expect(delivery?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId)
  })

  it('continues the trace of a traceparent header, and names the span by method without a route', async () => {
    const receiver = receiverWith({ instrumentation: otelInstrumentation(providers) })
    const mounted = await listen(createServer(ringhook(receiver)))
    open.push(mounted)
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const { method, headers, body } = await gesture({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` })
    expect((await fetch(mounted.url, { method, headers, body })).status).toBe(200)
    const [span] = ours()
    expect(span?.name).toBe('POST')
    expect(span?.kind).toBe(SpanKind.SERVER)
    expect(span?.spanContext().traceId).toBe(traceId)
    expect(span?.parentSpanContext).toMatchObject({ spanId: '00f067aa0ba902b7', isRemote: true })
  })

  it('keeps a method a stranger made up out of the span name and attributes', async () => {
    const receiver = receiverWith({ instrumentation: otelInstrumentation({ ...providers, route: '/webhooks' }) })
    const response = await receiver.handle({ method: 'FROBNICATE', headers: {}, rawBody: '' })
    expect(response.status).toBe(405)
    expect(ours()[0]?.name).toBe('HTTP /webhooks')
    expect(ours()[0]?.attributes['http.request.method']).toBe('_OTHER')
    expect(summary(await telemetry.metrics())).toEqual(['ringhook.deliveries {ringhook.outcome=method_not_allowed} 1'])
  })

  it('adds up the counts of several receivers sharing a meter provider', async () => {
    const receivers = [1, 2].map(() => receiverWith({ instrumentation: otelInstrumentation(providers) }))
    for (const receiver of [...receivers, receivers[0] as Receiver]) {
      const { method, headers, body } = await gesture()
      expect((await receiver.handle({ method, headers, rawBody: body })).status).toBe(200)
    }
    expect(summary(await telemetry.metrics())).toContain(
      'ringhook.deliveries {ringhook.event=gesture,ringhook.outcome=ok} 3',
    )
  })

  it('uses the globally registered providers by default, and does nothing without them', async () => {
    const request = await gesture()
    const delivery = { method: request.method, headers: request.headers, rawBody: request.body }
    // No SDK registered: the API's no-ops record nothing, and no delivery fails for it.
    const bare = receiverWith({ instrumentation: otelInstrumentation() })
    expect((await bare.handle(delivery)).status).toBe(200)
    expect(ours()).toEqual([])

    trace.setGlobalTracerProvider(telemetry.tracerProvider)
    metrics.setGlobalMeterProvider(telemetry.meterProvider)
    try {
      const global = receiverWith({ instrumentation: otelInstrumentation() })
      expect((await global.handle({ ...delivery, rawBody: (await gesture()).body })).status).toBe(401)
      // The bare receiver's tracer follows the provider registered since; its meter was looked up already.
      expect((await bare.handle(delivery)).status).toBe(200)
      expect(ours().map((span) => span.attributes['ringhook.outcome'])).toEqual(['unauthorized', 'duplicate'])
      expect(summary(await telemetry.metrics())).toEqual([
        'ringhook.deliveries {ringhook.outcome=unauthorized} 1',
        'ringhook.verification.failures {ringhook.verification.reason=signature_mismatch} 1',
      ])
    } finally {
      trace.disable()
      metrics.disable()
    }
    expect(context.active()).toBe(ROOT_CONTEXT)
  })
})
