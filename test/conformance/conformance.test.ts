import {
  createReceiver,
  type Receiver,
  type ReceiverOptions,
  type RinghookError,
  silentLogger,
  vibe,
} from '@ringhook/core'
import { LIFECYCLE_EVENT_NAMES } from '@ringhook/core/internal'
import { createMemoryStore, MAX_DEDUP_KEY_LENGTH } from '@ringhook/core/store'
import { otelInstrumentation } from '@ringhook/otel'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { capture } from '../otel/support/capture.js'
import { leaks, undocumentedAttributes } from '../otel/support/scan.js'
import { recordingLogger, until } from '../reliability/support.js'
import { type Delivery, gesture, lifecycle, NOW_MS, NOW_S, post, responded, SECRET, signed } from '../support/events.js'
import { gate } from '../support/gate.js'
import { adapters, type Mounted } from './adapters.js'

const base: ReceiverOptions = { secret: SECRET, now: () => NOW_MS, logger: silentLogger, maxBodyBytes: 4096 }

// Every case runs twice on every adapter: as configured by default, and with OpenTelemetry
// instrumentation into an in-memory SDK, which must change no answer. What it exports is scanned
// by the last describe, which sends its own deliveries.
const telemetry = capture()
afterAll(() => telemetry.shutdown())
const instrumentation = otelInstrumentation({
  route: '/webhooks',
  tracerProvider: telemetry.tracerProvider,
  meterProvider: telemetry.meterProvider,
})
const suites = adapters.flatMap((adapter) => [
  { ...adapter, title: adapter.name, options: {} },
  { ...adapter, title: `${adapter.name}, with OpenTelemetry`, options: { instrumentation } },
])

/** A receiver that records every event it handles. */
function recording(options: Partial<ReceiverOptions> = {}) {
  const seen: Array<{ event: string; secretIndex: number }> = []
  const receiver = createReceiver({ ...base, ...options })
  receiver.onAny((event, ctx) => {
    seen.push({ event: event.event, secretIndex: ctx.delivery.secretIndex })
  })
  return { receiver, seen }
}

type Case = {
  name: string
  delivery: () => Promise<Delivery>
  status: number
  code?: string
  handled: number
}

/** A signed delivery with some headers replaced (a string) or removed (undefined). */
const withHeaders = async (payload: Record<string, unknown>, patch: Record<string, string | undefined>) => {
  const delivery = await signed(payload)
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) delete delivery.headers[name]
    else delivery.headers[name] = value
  }
  return delivery
}

const cases: Case[] = [
  { name: 'a valid gesture', delivery: () => signed(gesture()), status: 200, handled: 1 },
  {
    name: 'GET',
    delivery: async () => ({ ...(await signed(gesture())), method: 'GET' }),
    status: 405,
    code: 'method_not_allowed',
    handled: 0,
  },
  {
    name: 'PUT',
    delivery: async () => ({ ...(await signed(gesture())), method: 'PUT' }),
    status: 405,
    code: 'method_not_allowed',
    handled: 0,
  },
  {
    name: 'a body over the limit',
    delivery: () => signed(gesture({ pad: 'x'.repeat(5000) })),
    status: 413,
    code: 'payload_too_large',
    handled: 0,
  },
  {
    name: 'a non-JSON content type',
    delivery: () => withHeaders(gesture(), { 'content-type': 'text/plain' }),
    status: 415,
    code: 'unsupported_media_type',
    handled: 0,
  },
  {
    name: 'a missing signature',
    delivery: () => withHeaders(gesture(), { 'x-service-signature': undefined }),
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'a missing timestamp',
    delivery: () => withHeaders(gesture(), { 'x-service-timestamp': undefined }),
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'a signature with another scheme',
    delivery: () => withHeaders(gesture(), { 'x-service-signature': `sha1=${'ab'.repeat(20)}` }),
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'the wrong secret',
    delivery: () => signed(gesture(), { secret: 'not-the-secret' }),
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'a timestamp 301 s old',
    delivery: () => signed(gesture(), { timestamp: NOW_S - 301 }),
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'a timestamp 301 s ahead',
    delivery: () => signed(gesture(), { timestamp: NOW_S + 301 }),
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'a timestamp 299 s old',
    delivery: () => signed(gesture(), { timestamp: NOW_S - 299 }),
    status: 200,
    handled: 1,
  },
  {
    name: 'a timestamp 299 s ahead',
    delivery: () => signed(gesture(), { timestamp: NOW_S + 299 }),
    status: 200,
    handled: 1,
  },
  {
    name: 'a timestamp exactly 300 s old',
    delivery: () => signed(gesture(), { timestamp: NOW_S - 300 }),
    status: 200,
    handled: 1,
  },
  {
    name: 'a body re-serialised after signing',
    delivery: async () => {
      const payload = gesture()
      const delivery = await signed(JSON.stringify(payload, null, 2))
      return { ...delivery, body: JSON.stringify(payload) }
    },
    status: 401,
    code: 'unauthorized',
    handled: 0,
  },
  {
    name: 'signed invalid JSON',
    delivery: () => signed('{"event": "gesture",'),
    status: 400,
    code: 'invalid_json',
    handled: 0,
  },
  {
    name: 'signed JSON that is not an object',
    delivery: () => signed('[1,2]'),
    status: 400,
    code: 'invalid_payload',
    handled: 0,
  },
  {
    name: 'a gesture without gesture_type',
    delivery: () => signed(gesture({ gesture_type: undefined })),
    status: 400,
    code: 'invalid_payload',
    handled: 0,
  },
  {
    name: 'a response value outside the spec',
    delivery: () => signed({ ...responded('evt_bad'), data: { event_id: 'evt_bad', response: 'maybe' } }),
    status: 400,
    code: 'invalid_payload',
    handled: 0,
  },
  {
    name: 'an emoji in a field',
    delivery: () => signed(gesture({ gesture_type: 'wave 👋🏽' })),
    status: 200,
    handled: 1,
  },
  {
    name: 'whitespace and key order as the sender chose',
    delivery: () =>
      signed(
        `{ "data" : {},\n  "app_id":"app_demo", "user_app_id": "u1", "timestamp": "2026-11-22T10:00:00Z", "gesture_type":"tap", "event":"gesture" }`,
      ),
    status: 200,
    handled: 1,
  },
  {
    name: 'an event this version does not know',
    delivery: () => signed(lifecycle('slot.granted')),
    status: 200,
    handled: 1,
  },
  { name: 'extra fields', delivery: () => signed(gesture({ new_field: { nested: true } })), status: 200, handled: 1 },
  ...LIFECYCLE_EVENT_NAMES.map((name) => ({
    name: `a ${name} event`,
    delivery: () => signed(lifecycle(name)),
    status: 200,
    handled: 1,
  })),
  { name: 'a notification response', delivery: () => signed(responded('evt_1', 'emoji:🎉')), status: 200, handled: 1 },
]

describe.each(suites)('conformance: $title', (adapter) => {
  const recordingReceiver = (options: Partial<ReceiverOptions> = {}) => recording({ ...adapter.options, ...options })
  let mounted: Mounted | undefined
  const mount = async (receiver: Receiver) => {
    mounted = await adapter.mount(receiver)
    return mounted.url
  }
  afterEach(async () => {
    await mounted?.close()
    mounted = undefined
  })

  it.each(cases)('answers $status to $name', async ({ delivery, status, code, handled }) => {
    const { receiver, seen } = recordingReceiver()
    const response = await post(await mount(receiver), await delivery())
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    if (code) expect(response.body).toMatchObject({ error: { code } })
    expect(seen).toHaveLength(handled)
  })

  it('answers a gesture with the vibe its handler returns', async () => {
    const { receiver } = recordingReceiver()
    receiver.on('gesture', (event) => vibe('tap', 'pulse').notify(`Got ${event.gesture_type}`))
    const response = await post(await mount(receiver), await signed(gesture()))
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      success: true,
      vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message: 'Got double_tap', show_ring_ui_notif: true },
    })
  })

  it("turns an invalid vibe into a handler error, reported to onError in the rules' words", async () => {
    const { receiver } = recordingReceiver()
    const errors: RinghookError[] = []
    // A plain object: the builder refuses four steps when it is built (see the next test).
    receiver.on('gesture', () => ({ sequence: Array(4).fill({ type: 'tap' as const }) }))
    receiver.onError((error) => void errors.push(error))
    const response = await post(await mount(receiver), await signed(gesture()))
    expect(response.status).toBe(500)
    expect(response.body).toMatchObject({ error: { code: 'handler_error' } })
    expect(errors[0]?.phase).toBe('reply')
    expect(errors[0]?.message).toMatch(/a vibe has 1 to 3 steps \(sequence\), this one has 4/)
  })

  it("reports a vibe the builder refused as the handler's error, naming the rule", async () => {
    const { receiver } = recordingReceiver()
    const errors: RinghookError[] = []
    receiver.on('gesture', () => vibe('tap').message('x'.repeat(100)))
    receiver.onError((error) => void errors.push(error))
    const response = await post(await mount(receiver), await signed(gesture()))
    expect(response.status).toBe(500)
    expect(errors[0]?.phase).toBe('handler')
    expect(errors[0]?.cause).toMatchObject({ name: 'VibeRuleError', rule: 'message_length' })
  })

  it('accepts a delivery signed with an older secret during a rotation', async () => {
    const { receiver, seen } = recordingReceiver({ secret: ['whsec_new', SECRET] })
    const response = await post(await mount(receiver), await signed(gesture()))
    expect(response.status).toBe(200)
    expect(seen).toEqual([{ event: 'gesture', secretIndex: 1 }])
  })

  it('picks the secret per app with a resolver', async () => {
    const secrets: Record<string, string> = { app_a: 'whsec_a', app_demo: SECRET }
    const { receiver, seen } = recordingReceiver({ secret: ({ appId }) => secrets[appId ?? ''] ?? [] })
    const url = await mount(receiver)
    expect((await post(url, await signed(gesture()))).status).toBe(200)
    expect((await post(url, await signed(gesture({ app_id: 'app_a' })))).status).toBe(401)
    expect((await post(url, await signed(gesture({ app_id: 'app_a' }), { secret: 'whsec_a' }))).status).toBe(200)
    expect(seen).toHaveLength(2)
  })

  it('runs a repeated delivery once and replays the first reply', async () => {
    const { receiver, seen } = recordingReceiver()
    let n = 0
    receiver.on('gesture', () => vibe('tap').message(`reply ${++n}`))
    const url = await mount(receiver)
    const payload = gesture()
    const first = await post(url, await signed(payload))
    // The service's retry: same payload, new header timestamp and signature.
    const retry = await post(url, await signed(payload, { timestamp: NOW_S + 5 }))
    expect(first.status).toBe(200)
    expect(retry.status).toBe(200)
    expect(retry.body).toEqual(first.body)
    expect(retry.headers.get('x-ringhook-duplicate')).toBe('true')
    expect(seen).toHaveLength(1)
  })

  it('runs concurrent copies once and answers the copy 409 until the first finishes', async () => {
    const { receiver, seen } = recordingReceiver()
    // The first delivery's handler is held until its copy has been answered.
    const started = gate()
    const held = gate()
    receiver.on('gesture', () => {
      started.open()
      return held.promise
    })
    const url = await mount(receiver)
    const delivery = await signed(gesture())
    const first = post(url, delivery)
    await started.promise
    expect((await post(url, delivery)).status).toBe(409)
    held.open()
    expect((await first).status).toBe(200)
    expect(seen).toHaveLength(1)
    expect((await post(url, delivery)).status).toBe(200)
    expect(seen).toHaveLength(1)
  })

  it('deduplicates notification responses on data.event_id', async () => {
    const { receiver, seen } = recordingReceiver()
    const url = await mount(receiver)
    await post(url, await signed(responded('evt_42')))
    await post(url, await signed(responded('evt_42')))
    expect(seen).toHaveLength(1)
  })

  it('answers a gesture carrying the event_id of an earlier notification response with its own vibe', async () => {
    const { receiver } = recordingReceiver()
    receiver.on('gesture', () => vibe('pulse'))
    const url = await mount(receiver)
    expect((await post(url, await signed(responded('evt_shared')))).status).toBe(200)
    const response = await post(url, await signed(gesture({ data: { event_id: 'evt_shared' } })))
    expect(response.headers.get('x-ringhook-duplicate')).toBeNull()
    expect(response.body).toEqual({ success: true, vibe: { sequence: [{ type: 'pulse' }] } })
  })

  it("never answers one user's gesture with another user's vibe", async () => {
    const { receiver, seen } = recordingReceiver()
    receiver.on('gesture', (event) => vibe('tap').message(`for ${event.user_app_id}`))
    const url = await mount(receiver)
    const same = { timestamp: new Date(NOW_MS).toISOString(), data: { event_id: 'evt_same' } }
    const ada = await post(url, await signed(gesture({ ...same, user_app_id: 'ada' })))
    const bob = await post(url, await signed(gesture({ ...same, user_app_id: 'bob' })))
    expect(ada.body).toMatchObject({ vibe: { message: 'for ada' } })
    expect(bob.body).toMatchObject({ vibe: { message: 'for bob' } })
    expect(seen).toHaveLength(2)
  })

  it('remembers a delivery with a long event_id under a key of bounded size', async () => {
    const keys: string[] = []
    const store = createMemoryStore()
    const { receiver, seen } = recordingReceiver({
      store: {
        claim: (key, ttl) => {
          keys.push(key)
          return store.claim(key, ttl)
        },
        complete: (...args) => store.complete(...args),
        release: (...args) => store.release(...args),
      },
    })
    const url = await mount(receiver)
    const long = responded(`evt_${'x'.repeat(3500)}`)
    expect((await post(url, await signed(long))).status).toBe(200)
    const replay = await post(url, await signed(long, { timestamp: NOW_S + 60 }))
    expect(replay.headers.get('x-ringhook-duplicate')).toBe('true')
    expect(seen).toHaveLength(1)
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(MAX_DEDUP_KEY_LENGTH)
  })

  it('drops __proto__ keys however the JSON spells them', async () => {
    const { receiver } = recordingReceiver()
    const owned: boolean[] = []
    receiver.onAny((event) => {
      const record = event as Record<string, unknown>
      owned.push(Object.hasOwn(record, '__proto__'), Object.hasOwn(record.data as object, '__proto__'))
    })
    const url = await mount(receiver)
    const text = JSON.stringify(gesture({ data: { marker: 1 } }))
      .replace('"data":{', '"data":{"_\\u005f\\u0070roto\\u005F_":{"polluted":true},')
      .replace('{"event"', '{"\\u005f_proto__":{"isAdmin":true},"event"')
    expect(text).toContain('\\u005f_proto__')
    expect((await post(url, await signed(text))).status).toBe(200)
    expect(owned).toEqual([false, false])
  })

  it('answers 500 body_already_parsed, with the fix in the log, when the host read the body first', async () => {
    const logger = recordingLogger()
    const { lines } = logger
    const { receiver, seen } = recordingReceiver({ logger })
    mounted = await adapter.readFirst.mount(receiver)
    const delivery = await signed(gesture())
    const response = await post(mounted.url, delivery)
    expect(response.status).toBe(500)
    expect(response.body).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(seen).toEqual([])
    const refusals = lines.filter((line) => line.fields.code === 'body_already_parsed')
    expect(refusals).toHaveLength(1)
    expect(refusals[0]?.level).toBe('error')
    expect(refusals[0]?.message).toContain('The webhook body was read before ringhook ran')
    expect(refusals[0]?.message).toContain(adapter.readFirst.fix)
    expect(JSON.stringify(lines)).not.toContain(delivery.headers['x-service-signature'])
  })

  it('answers 500 when a handler throws, and lets the retry run it again', async () => {
    const { receiver, seen } = recordingReceiver()
    let calls = 0
    receiver.on('app.installed', async () => {
      if (++calls === 1) throw new Error('database down')
    })
    const errors: string[] = []
    receiver.onError((error) => void errors.push(error.code))
    const url = await mount(receiver)
    const payload = lifecycle('app.installed')
    const first = await post(url, await signed(payload))
    expect(first.status).toBe(500)
    expect(first.body).toMatchObject({ error: { code: 'handler_error' } })
    expect(JSON.stringify(first.body)).not.toContain('database down')
    const retry = await post(url, await signed(payload, { timestamp: NOW_S + 1 }))
    expect(retry.status).toBe(200)
    expect(calls).toBe(2)
    expect(seen).toHaveLength(2)
    expect(errors).toEqual(['handler_error'])
  })

  it('acknowledges at the deadline and reports a late failure to onError', async () => {
    const receiver = createReceiver({ ...base, ...adapter.options, deadlineMs: 100 })
    let aborted = false
    const late = new Promise<RinghookError>((resolve) => receiver.onError((error) => resolve(error)))
    // The handler is held until the answer has arrived: an answer that waited for it never comes.
    const held = gate()
    receiver.on('app.activated', async (_event, ctx) => {
      await held.promise
      aborted = ctx.signal.aborted
      throw new Error('failed after the answer')
    })
    const url = await mount(receiver)
    const response = await post(url, await signed(lifecycle('app.activated')))
    expect(response.status).toBe(200)
    held.open()
    const error = await late
    expect(error.phase).toBe('after_reply')
    expect(aborted).toBe(true)
  })

  it('answers 503 at the deadline when configured to, then replays the finished result', async () => {
    const receiver = createReceiver({ ...base, ...adapter.options, deadlineMs: 100, onDeadline: 'retry' })
    // The handler is held until the test lets it go: the copy sent after the 503 finds it running.
    const held = gate()
    let finished = false
    receiver.on('gesture', async () => {
      await held.promise
      finished = true
      return vibe('pulse')
    })
    const url = await mount(receiver)
    const payload = gesture()
    const first = await post(url, await signed(payload))
    expect(first.status).toBe(503)
    expect(first.body).toMatchObject({ error: { code: 'deadline_exceeded' } })
    expect((await post(url, await signed(payload))).status).toBe(409)
    held.open()
    // The memory store takes the finished reply in the promise jobs that follow the handler's.
    await until(() => finished)
    await new Promise((resolve) => setImmediate(resolve))
    const retry = await post(url, await signed(payload))
    expect(retry.status).toBe(200)
    expect(retry.body).toEqual({ success: true, vibe: { sequence: [{ type: 'pulse' }] } })
  })
})

describe('the telemetry exported for every case on every adapter', () => {
  // Its own deliveries into its own SDK: nothing here depends on which other tests ran before.
  const own = capture()
  afterAll(() => own.shutdown())
  const secrets = ['whsec_new', SECRET, 'not-the-secret']

  it('holds no secret, signature, body, app id or user id, and only the documented attributes', {
    timeout: 60_000,
  }, async () => {
    const exported = otelInstrumentation({
      route: '/webhooks',
      tracerProvider: own.tracerProvider,
      meterProvider: own.meterProvider,
    })
    const deliveries: Delivery[] = []
    const sendAll = async (adapter: (typeof adapters)[number]) => {
      // A rotation in progress, so that both configured secrets are there to leak.
      const receiver = createReceiver({ ...base, secret: ['whsec_new', SECRET], instrumentation: exported })
      receiver.on('app.installed', () => {
        throw new Error('database down')
      })
      const served = await adapter.mount(receiver)
      try {
        for (const { delivery } of cases) {
          const one = await delivery()
          deliveries.push(one)
          await post(served.url, one)
        }
        const failing = await signed(lifecycle('app.installed'))
        deliveries.push(failing)
        expect((await post(served.url, failing)).status).toBe(500)
      } finally {
        await served.close()
      }
    }
    await Promise.all(adapters.map(sendAll))
    const spans = own.spans().filter((span) => span.instrumentationScope.name === '@ringhook/otel')
    const metrics = await own.metrics()
    expect(spans.length).toBe(deliveries.length)
    expect(leaks(spans, metrics, deliveries, secrets)).toEqual([])
    expect(undocumentedAttributes(spans, metrics)).toEqual([])
  })
})
