// Anyone can POST anything to a webhook URL. Property tests throw arbitrary methods, headers and
// bytes at receiver.handle() and check, against an oracle written here (not core's code), that it
// never throws, never answers 5xx to a client's mistake, and runs a handler only for a delivery
// signed with an active secret inside the timestamp tolerance.
import { createHash } from 'node:crypto'
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import { ERRORS, type WebhookRequest } from '@ringhook/core/adapter'
import { EVENT_NAMES, isKnownEventName } from '@ringhook/core/api'
import { EVENT_NOTES } from '@ringhook/core/internal'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { histogram, observe } from './observations.js'

const NOW_S = 1_790_000_000
const NOW_MS = NOW_S * 1000
const ACTIVE = ['whsec_current', 'whsec_previous'] as const
const LIMIT = 2048
const encoder = new TextEncoder()

/** A fresh receiver per run, so dedup never hides a second valid delivery. */
function subject(): { receiver: Receiver; calls: () => number } {
  let calls = 0
  const receiver = createReceiver({
    secret: [...ACTIVE],
    now: () => NOW_MS,
    logger: silentLogger,
    maxBodyBytes: LIMIT,
    bodyTimeoutMs: 1000,
  })
  receiver.onAny(() => {
    calls++
  })
  return { receiver, calls: () => calls }
}

// ---- The oracle: what should be accepted, decided without core's code. ----

function hmacHex(secret: string, message: Uint8Array): string {
  const key = new Uint8Array(64)
  key.set(Buffer.from(secret, 'utf8'))
  const inner = createHash('sha256')
    .update(key.map((b) => b ^ 0x36))
    .update(message)
    .digest()
  return createHash('sha256')
    .update(key.map((b) => b ^ 0x5c))
    .update(inner)
    .digest('hex')
}

type HeaderRecord = Record<string, string | string[]>

function header(headers: HeaderRecord | Headers, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : headers[key]
  // A header sent twice must never be taken as either copy.
  return Array.isArray(value) ? value.join(', ') : value
}

function authentic(headers: HeaderRecord | Headers, body: Uint8Array): boolean {
  const signature = header(headers, 'x-service-signature') ?? ''
  const timestamp = header(headers, 'x-service-timestamp') ?? ''
  const sig = /^sha256=([0-9a-fA-F]{64})$/.exec(signature)
  if (!sig || !/^[0-9]{1,12}$/.test(timestamp)) return false
  if (Math.abs(NOW_S - Number(timestamp)) > 300) return false
  const message = Buffer.concat([Buffer.from(`${timestamp}.`), body])
  return ACTIVE.some((secret) => hmacHex(secret, message) === sig[1]?.toLowerCase())
}

function passesGates(method: string, headers: HeaderRecord | Headers, body: Uint8Array): boolean {
  const type = (header(headers, 'content-type') ?? '').split(';')[0]?.trimEnd().toLowerCase() ?? ''
  const json = type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)
  return method.toUpperCase() === 'POST' && json && body.length <= LIMIT
}

// ---- Generators ----

const randomCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((flags) => [...name].map((c, i) => (flags[i] ? c.toUpperCase() : c)).join(''))

const methodArb = fc.oneof(
  fc.constantFrom('POST', 'post', 'Post', 'GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'),
  fc.string({ maxLength: 12 }),
)

const headerNameArb = fc.oneof(
  randomCase('x-service-signature'),
  randomCase('x-service-timestamp'),
  randomCase('content-type'),
  randomCase('content-length'),
  fc.string({ maxLength: 24 }),
)

const headerValueArb = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom('application/json', 'application/json; charset=utf-8', String(NOW_S), '0', '-1', '1e400'),
  fc.stringMatching(/^sha256=[0-9a-f]{64}$/),
  fc.array(fc.string({ maxLength: 80 }), { minLength: 2, maxLength: 3 }),
)

const bodyArb = fc.oneof(
  fc.uint8Array({ maxLength: LIMIT + 512 }),
  fc.string({ unit: 'binary', maxLength: 600 }).map((s) => encoder.encode(s)),
  fc.json().map((s) => encoder.encode(s)),
)

/** The same bytes as an adapter might hand them over: buffered, text, chunks, or a web stream. */
const bodyFormArb = fc.record({
  form: fc.constantFrom('bytes', 'text', 'chunks', 'stream', 'empty-null'),
  cuts: fc.array(fc.nat(), { maxLength: 4 }),
})

function asRawBody(bytes: Uint8Array, { form, cuts }: { form: string; cuts: number[] }): WebhookRequest['rawBody'] {
  const pieces = () => {
    const points = [...new Set(cuts.map((c) => (bytes.length ? c % bytes.length : 0)))].sort((a, b) => a - b)
    return [0, ...points, bytes.length].slice(1).map((end, i, ends) => bytes.slice(i ? ends[i - 1] : 0, end))
  }
  switch (form) {
    case 'text': {
      // Text only stands for bytes that round-trip through UTF-8.
      const text = new TextDecoder().decode(bytes)
      return Buffer.from(text).equals(bytes) ? text : bytes
    }
    case 'chunks':
      return (async function* () {
        for (const piece of pieces()) yield piece
      })()
    case 'stream':
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces()) controller.enqueue(piece)
          controller.close()
        },
      })
    case 'empty-null':
      return bytes.length === 0 ? null : bytes
    default:
      return bytes
  }
}

/** Every documented event, from core's list, and one this version does not know. */
const EVENTS = [...EVENT_NAMES, 'slot.granted'] as const
/** An event's own `data`, from the sample in core's list (an unknown event's is empty). */
const dataOf = (event: string) => (isKnownEventName(event) ? EVENT_NOTES[event].sample.data : {})

/** A valid payload of any event, with arbitrary extra fields (kept apart from the documented ones). */
const payloadArb = fc
  .record({
    event: fc.constantFrom(...EVENTS),
    gestureType: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
    user: fc.uuid(),
    extra: fc.dictionary(
      fc.string({ maxLength: 10 }).map((k) => `x_${k}`),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 3 },
    ),
    eventId: fc.string({ minLength: 1, maxLength: 20 }),
    response: fc.constantFrom('yes', 'no', 'dismiss', 'emoji:🎉'),
  })
  .map(({ event, gestureType, user, extra, eventId, response }) =>
    JSON.stringify({
      event,
      ...(event === 'gesture' ? { gesture_type: gestureType } : {}),
      user_app_id: user,
      app_id: 'app_props',
      timestamp: '2026-11-22T10:00:00.000Z',
      data: event === 'notification.responded' ? { event_id: eventId, response } : dataOf(event),
      ...extra,
    }),
  )

/** What may be done to a correctly signed delivery on its way (an attacker, a proxy, a bug). */
const mutationArb = fc.oneof(
  fc.record({ op: fc.constant('flip-bit' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('append' as const), text: fc.constantFrom(' ', '\n', '}', '\u0000') }),
  fc.record({ op: fc.constant('upper-hex' as const) }),
  fc.record({ op: fc.constant('scheme' as const), prefix: fc.constantFrom('SHA256=', 'sha1=', '', 'sha256= ', 'v1,') }),
  fc.record({
    op: fc.constant('timestamp' as const),
    value: fc.oneof(
      fc.integer({ min: -400, max: 400 }).map((d) => String(NOW_S + d)),
      fc.constantFrom(` ${NOW_S}`, `${NOW_S}.0`, `+${NOW_S}`, `0${NOW_S}`, `${NOW_S * 1000}`, ''),
    ),
  }),
  fc.record({
    op: fc.constant('duplicate-signature' as const),
    second: fc.oneof(fc.constant('same'), fc.stringMatching(/^sha256=[0-9a-f]{64}$/)),
  }),
  fc.record({
    op: fc.constant('drop' as const),
    name: fc.constantFrom('x-service-signature', 'x-service-timestamp', 'content-type'),
  }),
  fc.record({ op: fc.constant('method' as const), value: fc.constantFrom('GET', 'PUT', 'post', 'PATCH') }),
  fc.record({
    op: fc.constant('content-type' as const),
    value: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.ring+json',
      'text/plain',
      'application/jsonx',
      'application/x-www-form-urlencoded',
    ),
  }),
  fc.record({ op: fc.constant('resign-after-body-change' as const), text: fc.constantFrom(' ', '{', 'x') }),
)

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never
type Mutation = ValueOf<typeof mutationArb>

// Weighted towards valid signatures, so that both sides of the property are well exercised.
const signerArb = fc.record({
  secret: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ACTIVE) },
    { weight: 1, arbitrary: fc.constantFrom('whsec_revoked', 'whsec_current ') },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  ),
  age: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -300, max: 300 }) },
    { weight: 2, arbitrary: fc.integer({ min: -400, max: 400 }) },
    { weight: 1, arbitrary: fc.constantFrom(-301, -300, 300, 301) },
    { weight: 1, arbitrary: fc.integer({ min: -100_000, max: 100_000 }) },
  ),
})

const mutationsArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 2, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) },
)

interface Built {
  method: string
  headers: HeaderRecord
  body: Uint8Array
  intact: boolean
}

function build(payload: string, signer: { secret: string; age: number }, mutations: readonly Mutation[]) {
  const original = encoder.encode(payload)
  const sign = (body: Uint8Array, timestamp: number) =>
    `sha256=${hmacHex(signer.secret, Buffer.concat([Buffer.from(`${timestamp}.`), body]))}`
  const timestamp = NOW_S - signer.age
  const built: Built = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': String(timestamp),
      'x-service-signature': sign(original, timestamp),
    },
    body: original,
    intact: true,
  }
  for (const m of mutations) {
    const { headers } = built
    const signature = String(headers['x-service-signature'] ?? '')
    switch (m.op) {
      case 'flip-bit':
        if (built.body.length) {
          built.body = Uint8Array.from(built.body)
          const i = m.at % (built.body.length * 8)
          built.body[i >> 3] = (built.body[i >> 3] as number) ^ (1 << (i & 7))
        }
        break
      case 'truncate':
        built.body = built.body.slice(0, m.at % (built.body.length + 1))
        break
      case 'append':
        built.body = Buffer.concat([built.body, encoder.encode(m.text)])
        break
      case 'upper-hex':
        if (signature.startsWith('sha256='))
          headers['x-service-signature'] = `sha256=${signature.slice(7).toUpperCase()}`
        break
      case 'scheme':
        headers['x-service-signature'] = m.prefix + signature.replace(/^sha256=/, '')
        break
      case 'timestamp':
        headers['x-service-timestamp'] = m.value
        break
      case 'duplicate-signature':
        headers['x-service-signature'] = [signature, m.second === 'same' ? signature : m.second]
        break
      case 'drop':
        delete headers[m.name]
        break
      case 'method':
        built.method = m.value
        break
      case 'content-type':
        headers['content-type'] = m.value
        break
      case 'resign-after-body-change':
        built.body = Buffer.concat([built.body, encoder.encode(m.text)])
        headers['x-service-timestamp'] = String(timestamp)
        headers['x-service-signature'] = sign(built.body, timestamp)
        break
    }
  }
  built.intact = Buffer.from(built.body).equals(original)
  return built
}

/** Header names in random case, and sometimes a Fetch `Headers` instead of a Node-style record. */
const deliveryShapeArb = fc.record({ caseFlags: fc.array(fc.boolean(), { maxLength: 40 }), asHeaders: fc.boolean() })
type DeliveryShape = ValueOf<typeof deliveryShapeArb>

function shape(headers: HeaderRecord, { caseFlags, asHeaders }: DeliveryShape) {
  const cased: HeaderRecord = {}
  for (const [name, value] of Object.entries(headers)) {
    cased[[...name].map((c, i) => (caseFlags[i] ? c.toUpperCase() : c)).join('')] = value
  }
  if (!asHeaders) return cased
  try {
    const fetchHeaders = new Headers()
    for (const [name, value] of Object.entries(cased)) {
      for (const one of Array.isArray(value) ? value : [value]) fetchHeaders.append(name, one)
    }
    return fetchHeaders
  } catch {
    return cased // a value Headers refuses (a control character): keep the record
  }
}

async function answer(receiver: Receiver, request: WebhookRequest) {
  const response = await receiver.handle(request)
  const body = JSON.parse(response.body) as { error?: { code: keyof typeof ERRORS } }
  if (response.status >= 400) {
    const code = body.error?.code
    expect(code && ERRORS[code].status).toBe(response.status)
  }
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  return response.status
}

describe('receiver.handle() under arbitrary input', () => {
  it('never throws, never answers 5xx, never runs a handler for arbitrary methods, headers and bytes', async ({
    task,
  }) => {
    const statuses: number[] = []
    await fc.assert(
      fc.asyncProperty(
        methodArb,
        fc.dictionary(headerNameArb, headerValueArb, { maxKeys: 8 }),
        bodyArb,
        bodyFormArb,
        async (method, headers, body, form) => {
          const { receiver, calls } = subject()
          const status = await answer(receiver, { method, headers, rawBody: asRawBody(body, form) })
          expect(status).toBeGreaterThanOrEqual(400)
          expect(status).toBeLessThan(500)
          // Random bytes cannot carry a valid signature; if the oracle ever says otherwise, so be it.
          expect(calls()).toBe(authentic(headers, body) && passesGates(method, headers, body) ? 1 : 0)
          statuses.push(status)
        },
      ),
      { numRuns: 400 },
    )
    observe(
      {
        table: 'inputs',
        row: 'Arbitrary method, headers (random names and case, repeated values) and body bytes, buffered or streamed',
        column: 'result',
        value: `${statuses.length} runs: ${histogram(statuses)}; no throw, no 5xx, no handler run`,
      },
      task,
    )
  })

  it('runs a handler exactly when the delivery is authentic, whatever was done to it on the way', async ({ task }) => {
    const statuses: number[] = []
    let handled = 0
    await fc.assert(
      fc.asyncProperty(
        payloadArb,
        signerArb,
        mutationsArb,
        deliveryShapeArb,
        bodyFormArb,
        async (payload, signer, mutations, deliveryShape, form) => {
          const built = build(payload, signer, mutations)
          const headers = shape(built.headers, deliveryShape)
          const { receiver, calls } = subject()
          const status = await answer(receiver, {
            method: built.method,
            headers,
            rawBody: asRawBody(built.body, form),
          })
          const gates = passesGates(built.method, headers, built.body)
          const authenticated = authentic(headers, built.body)
          expect(status).toBeLessThan(500)
          if (calls() > 0) expect(gates && authenticated).toBe(true)
          if (gates && !authenticated) expect(status).toBe(401)
          if (gates && authenticated && built.intact) {
            expect(status).toBe(200)
            expect(calls()).toBe(1)
          }
          handled += calls()
          statuses.push(status)
        },
      ),
      { numRuns: 600 },
    )
    // The generators must reach both sides of the property, or it proves little.
    expect(handled).toBeGreaterThan(50)
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(50)
    observe(
      {
        table: 'inputs',
        row: 'Signed deliveries (2 active secrets, revoked/whitespace/random secrets, ages ±100 000 s) with up to 3 mutations: flipped bit, truncation, trailing bytes, upper-case hex, other scheme, edited/duplicated headers, dropped headers, other method or content type; header names in random case; Node record or Fetch Headers',
        column: 'result',
        value: `${statuses.length} runs: ${histogram(statuses)}; handler ran ${handled}×, each time for a delivery the test's own HMAC check accepted; every authentic, untouched delivery handled`,
      },
      task,
    )
  })
})
