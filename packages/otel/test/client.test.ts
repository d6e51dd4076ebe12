import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { capture, points, summary } from '../../../test/otel/support/capture.js'
import { ALICE, APP, useWorld } from '../../client/test/world.js'
import { otelClientInstrumentation } from '../src/index.js'

const telemetry = capture()
afterAll(() => telemetry.shutdown())
const instrumentation = () =>
  otelClientInstrumentation({ tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider })
const tap = { app_id: APP, user_app_id: ALICE, sequence: [{ type: 'tap' as const }] }
const tooMany = {
  status: 429,
  body: '{"error":{"code":"rate_limited","message":"later"}}',
  headers: { 'retry-after': '1' },
}

describe('otelClientInstrumentation', () => {
  const world = useWorld()
  beforeEach(async () => {
    await telemetry.metrics()
  })

  it('counts requests by endpoint and status, and the 429s among them', async () => {
    const client = world.client({ instrumentation: instrumentation() })
    world.fixture.inject(tooMany)
    await client.vibes.trigger(tap)
    await client.vibes.trigger(tap)
    await client.users.get(APP, ALICE)
    await client.users.get(APP, '0f8e8a39-5f8c-4a55-9c51-7b7cf0f6a0ff').catch(() => undefined)
    const metrics = await telemetry.metrics()
    expect(summary(metrics)).toEqual([
      'ringhook.client.rate_limited {ringhook.client.endpoint=/vibes/trigger} 1',
      'ringhook.client.request.duration {error.type=not_found,http.request.method=GET,http.response.status_code=404,ringhook.client.endpoint=/apps/:app_id/users/:user_app_id} 1',
      'ringhook.client.request.duration {error.type=rate_limited,http.request.method=POST,http.response.status_code=429,ringhook.client.endpoint=/vibes/trigger} 1',
      'ringhook.client.request.duration {http.request.method=GET,http.response.status_code=200,ringhook.client.endpoint=/apps/:app_id/users/:user_app_id} 1',
      'ringhook.client.request.duration {http.request.method=POST,http.response.status_code=200,ringhook.client.endpoint=/vibes/trigger} 2',
    ])
    expect(JSON.stringify(metrics)).not.toContain(ALICE)
  })

  it('measures the waits of the client-side limiter, in seconds', async () => {
    const client = world.client({
      instrumentation: instrumentation(),
      rateLimit: { vibesPerUser: { limit: 1, windowMs: 60_000 } },
    })
    await client.vibes.trigger(tap)
    await client.vibes.trigger(tap)
    const waits = points(await telemetry.metrics(), 'ringhook.client.limiter.wait')
    expect(waits).toEqual([
      {
        attributes: { 'ringhook.client.endpoint': '/vibes/trigger', 'ringhook.client.limiter.refused': false },
        value: 2,
        sum: 60,
      },
    ])
  })
})
