import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { RinghookConfigError } from '../errors.js'
import type { Logger } from '../logger.js'
import { silentLogger } from '../logger.js'
import { createReceiver } from '../receiver/create-receiver.js'
import type { WebhookRequest } from '../receiver/request.js'
import { withExtras } from '../schemas/closed.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import { createCapture } from './capture.js'
import type { CaptureOptions } from './options.js'
import { hashValue } from './personal.js'
import { type CapturedDelivery, capturedDeliverySchema } from './record.js'
import type { CaptureSink } from './sink.js'

const secret = 'whsec_capture'
const nowMs = 1_800_000_000_000

const gesture = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: `user_${n}`,
    app_id: 'app_capture',
    timestamp: '2027-01-15T08:00:00.000Z',
    data: { n },
    ...extra,
  })

async function signed(body: string | Uint8Array, headerSecret = secret): Promise<WebhookRequest> {
  const { headers } = await signWebhook({ secret: headerSecret, body, timestamp: nowMs / 1000 })
  return {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'x-trace': 'abc' },
    rawBody: body,
  }
}

/** A sink that keeps what it is given. */
function memorySink(): CaptureSink & { records: CapturedDelivery[] } {
  const records: CapturedDelivery[] = []
  return { records, write: (batch) => void records.push(...batch) }
}

function setup(options: Partial<CaptureOptions> & { sink?: CaptureSink } = {}) {
  const sink = memorySink()
  const capture = createCapture({ sink, logger: silentLogger, ...options })
  const receiver = createReceiver({ secret, now: () => nowMs, logger: silentLogger, capture })
  receiver.on('gesture', (event) => {
    if (withExtras(event).data.fail) throw new Error('handler broke')
    return vibe('tap').message('hello')
  })
  return { sink, capture, receiver }
}

describe('capture', () => {
  it('records an accepted delivery: exact body, redacted signature, arrival, answer and outcome', async () => {
    const { sink, capture, receiver } = setup()
    const body = gesture(1)
    const answer = await receiver.handle(await signed(body))
    await capture.flush()
    expect(sink.records).toHaveLength(1)
    const record = sink.records[0] as CapturedDelivery
    expect(capturedDeliverySchema.safeParse(record).success).toBe(true)
    expect(record).toMatchObject({
      v: 1,
      event: 'gesture',
      receivedAt: new Date(nowMs).toISOString(),
      request: { method: 'POST', body, encoding: 'utf8', bytes: body.length },
      answer: { status: 200, body: answer.body },
      outcome: 'accepted',
    })
    expect(record.code).toBeUndefined()
    expect(record.request.headers['x-service-signature']).toBe('[redacted]')
    expect(record.request.headers['x-service-timestamp']).toBe(String(nowMs / 1000))
    expect(record.request.headers['x-trace']).toBe('abc')
    expect(record.answer.headers['content-type']).toBeUndefined()
  })

  it('records duplicates, refusals with their code, and handler failures', async () => {
    const { sink, capture, receiver } = setup()
    const body = gesture(2)
    await receiver.handle(await signed(body))
    const duplicate = await receiver.handle(await signed(body))
    await receiver.handle(await signed(gesture(3), 'whsec_wrong'))
    await receiver.handle(await signed(gesture(4, { data: { fail: true } })))
    await receiver.handle({ method: 'GET', headers: {}, rawBody: '' })
    await capture.flush()
    expect(sink.records.map((record) => [record.outcome, record.code, record.answer.status])).toEqual([
      ['accepted', undefined, 200],
      ['duplicate', undefined, 200],
      ['refused', 'unauthorized', 401],
      ['failed', 'handler_error', 500],
      ['refused', 'method_not_allowed', 405],
    ])
    expect(sink.records[1]?.answer.headers['x-ringhook-duplicate']).toBe('true')
    expect(sink.records[1]?.answer.body).toBe(duplicate.body)
    // An unauthenticated body is kept as it came, but is not read as an event.
    expect(sink.records[2]?.event).toBeUndefined()
    expect(sink.records[4]?.answer.headers.allow).toBe('POST')
  })

  it.each([
    ['retry', 'failed', 503, 'deadline_exceeded'],
    ['acknowledge', 'accepted', 200, undefined],
  ] as const)(
    "records a delivery past the deadline under onDeadline '%s' as %s",
    async (onDeadline, outcome, status, code) => {
      // `replay --outcome failed` must find the deliveries the service will retry.
      const sink = memorySink()
      const capture = createCapture({ sink, logger: silentLogger })
      const receiver = createReceiver({
        secret,
        now: () => nowMs,
        logger: silentLogger,
        capture,
        deadlineMs: 20,
        onDeadline,
      })
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      receiver.on('gesture', () => held)
      const answer = await receiver.handle(await signed(gesture(16)))
      expect(answer.status).toBe(status)
      release()
      await receiver.close()
      expect(sink.records.map((record) => [record.outcome, record.code, record.answer.status])).toEqual([
        [outcome, code, status],
      ])
    },
  )

  it('keeps a body that is not UTF-8 as base64', async () => {
    const { sink, capture, receiver } = setup()
    const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
    const answer = await receiver.handle(await signed(bytes))
    await capture.flush()
    expect(answer.status).toBe(400)
    expect(sink.records[0]?.request).toMatchObject({ encoding: 'base64', body: 'e//+fQ==', bytes: 4 })
    expect(sink.records[0]?.code).toBe('invalid_json')
  })

  it('records only the outcomes asked for, and counts the rest as skipped', async () => {
    const { sink, capture, receiver } = setup({ outcomes: ['failed'] })
    await receiver.handle(await signed(gesture(5)))
    await receiver.handle(await signed(gesture(6, { data: { fail: true } })))
    await receiver.handle(await signed(gesture(7), 'whsec_wrong'))
    await capture.flush()
    expect(sink.records.map((record) => record.outcome)).toEqual(['failed'])
    expect(capture.stats()).toMatchObject({ captured: 1, written: 1, skipped: 2 })
  })

  it('samples: none at 0, about half at 0.5', async () => {
    const none = setup({ sampleRate: 0 })
    const half = setup({ sampleRate: 0.5 })
    for (let n = 0; n < 400; n++) {
      await none.receiver.handle(await signed(gesture(100 + n)))
      await half.receiver.handle(await signed(gesture(100 + n)))
    }
    await Promise.all([none.capture.flush(), half.capture.flush()])
    expect(none.sink.records).toHaveLength(0)
    expect(none.capture.stats().skipped).toBe(400)
    // Binomial(400, 0.5): outside 140..260 with odds far below one in a million.
    expect(half.sink.records.length).toBeGreaterThan(140)
    expect(half.sink.records.length).toBeLessThan(260)
    expect(half.capture.stats().skipped + half.sink.records.length).toBe(400)
  })

  it('hashes personal fields with the salt, and says the body was written again', async () => {
    const { sink, capture, receiver } = setup({ salt: 'pepper' })
    await receiver.handle(await signed(gesture(8, { external_user_id: 'alice@example.com' })))
    await capture.flush()
    const record = sink.records[0] as CapturedDelivery
    expect(record.request.body).not.toContain('alice')
    expect(JSON.parse(record.request.body).external_user_id).toBe(hashValue('alice@example.com', 'pepper'))
    expect(hashValue('alice@example.com', 'pepper')).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(record.request.personal).toEqual({ action: 'hash', fields: ['external_user_id'] })
    expect(record.request.bytes).toBe(gesture(8, { external_user_id: 'alice@example.com' }).length)
  })

  it('hashes personal values where they stand, at any depth, keeping every other byte of the body', async () => {
    const { sink, capture, receiver } = setup({
      salt: 'pepper',
      personal: { fields: ['external_user_id', 'email'], action: 'hash' },
    })
    // Spaces, key order and a slash escape the sender chose; the names also as a value and inside a
    // string, where they are content, not keys.
    const body =
      '{ "timestamp" : "2027-01-15T08:00:00.000Z", "external_user_id" :  "ann\\/1", "event":"gesture",' +
      ' "gesture_type":"tap", "user_app_id":"user_21", "app_id":"app_capture",' +
      ' "data": {"email":"ann@example.com", "label":"external_user_id", "note":"\\"email\\": \\"x\\""} }'
    expect((await receiver.handle(await signed(body))).status).toBe(200)
    await capture.flush()
    const captured = sink.records[0]?.request.body as string
    expect(captured).toBe(
      body
        .replace('"ann\\/1"', `"${hashValue('ann/1', 'pepper')}"`)
        .replace('"ann@example.com"', `"${hashValue('ann@example.com', 'pepper')}"`),
    )
    expect(JSON.parse(captured).data.note).toBe('"email": "x"')
    expect(sink.records[0]?.request.personal).toEqual({ action: 'hash', fields: ['external_user_id', 'email'] })
  })

  it('writes the body again from its parse when a personal value is not a string', async () => {
    const { sink, capture, receiver } = setup({ salt: 'pepper' })
    const body = gesture(22, { external_user_id: { id: 7 } }).replace('{', '{ ')
    await receiver.handle(await signed(body))
    await capture.flush()
    const captured = sink.records[0]?.request.body as string
    expect(captured).toBe(JSON.stringify({ ...JSON.parse(body), external_user_id: hashValue({ id: 7 }, 'pepper') }))
  })

  it('hashes a value the same before and after its digest is remembered or forgotten, apart per salt', async () => {
    const expected = (value: unknown, salt: string) =>
      `sha256:${createHash('sha256')
        .update(`${salt}${JSON.stringify(value)}`)
        .digest('hex')}`
    // More distinct values than are remembered, so the first ones are forgotten and hashed again.
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 3000; n += 7) {
        expect(hashValue(`user_${n}`, 'pepper')).toBe(expected(`user_${n}`, 'pepper'))
        expect(hashValue(`user_${n}`, 'salt')).toBe(expected(`user_${n}`, 'salt'))
        expect(hashValue({ id: n }, 'pepper')).toBe(expected({ id: n }, 'pepper'))
      }
    }
  })

  it('hashes a personal field whose key is written with escapes', async () => {
    const { sink, capture, receiver } = setup({ salt: 'pepper' })
    const body = gesture(14).replace('"data"', '"external\\u005fuser_id":"mallory_9","data"')
    expect((await receiver.handle(await signed(body))).status).toBe(200)
    await capture.flush()
    const captured = sink.records[0]?.request.body as string
    expect(captured).not.toContain('mallory_9')
    expect(JSON.parse(captured).external_user_id).toBe(hashValue('mallory_9', 'pepper'))
  })

  // Hostile spellings of personal fields, each value marked `PV`: none may reach the record in clear.
  const hostile = [
    '"external_user_id":"PV1a","external_user_id":"PV1b"',
    '"data":{"external_user_id":"PV2a","n":1,"external_user_id":"PV2b","external_user_id":"PV2c"}',
    '"external_user_id":{"id":"PV3a"},"external_user_id":"PV3b"',
    '"external_user_id":"PV4a","external\\u005fuser_id":"PV4b"',
    '"external_user_id" :\t"PV5" ,"data":{"list":[{"external_user_id":"PV5a"},{"n":2,"external_user_id":"PV5b"}]}',
    '"note":"\\"external_user_id\\":\\"not personal\\"","external_user_id":"PV6"',
    '"k\\\\":"external_user_id","external_user_id":"PV7 q\\"uote\\\\"',
    '"x\\\\\\"external_user_id":"not a key","external_user_id":"PV8"',
    '"external_user_id":"PV9 é 👍 \\n \\/ \u2028"',
  ]
  const eventWith = (n: number, members: string) =>
    `{"event":"gesture","gesture_type":"tap","user_app_id":"user_${n}","app_id":"app_capture",` +
    `"timestamp":"2027-01-15T08:00:00.000Z",${members}${members.includes('"data"') ? '' : ',"data":{}'}}`

  it.each(['hash', 'drop'] as const)(
    'leaves no personal value of a hostile body anywhere in the record (%s), accepted or refused',
    async (action) => {
      const { sink, capture, receiver } = setup({ personal: { fields: ['external_user_id'], action } })
      for (const [n, members] of hostile.entries()) {
        const body = eventWith(500 + n, members)
        expect(body.match(/PV\d/g)?.length).toBeGreaterThan(0)
        expect((await receiver.handle(await signed(body))).status).toBe(200)
        expect((await receiver.handle(await signed(body, 'whsec_rotated'))).status).toBe(401)
      }
      await capture.flush()
      expect(sink.records).toHaveLength(2 * hostile.length)
      for (const record of sink.records) {
        expect(JSON.stringify(record).match(/PV\d+[a-c]?/g) ?? []).toEqual([])
        expect(record.request.personal?.action).toBe(action)
      }
    },
  )

  it('hashes personal fields in a refused body too, and leaves out one that is not JSON', async () => {
    const { sink, capture, receiver } = setup({ salt: 'pepper' })
    await receiver.handle(await signed(gesture(15, { external_user_id: 'oscar_5' }), 'whsec_rotated'))
    await receiver.handle(await signed('{"external_user_id":"oscar_5",'))
    await capture.flush()
    expect(sink.records.map((record) => record.code)).toEqual(['unauthorized', 'invalid_json'])
    expect(JSON.parse(sink.records[0]?.request.body as string).external_user_id).toBe(hashValue('oscar_5', 'pepper'))
    // Not JSON: the field cannot be found in it, so the body is left out, and the record says so.
    expect(sink.records[1]?.request).toMatchObject({
      body: '',
      cut: 'unscanned',
      sha256: createHash('sha256').update('{"external_user_id":"oscar_5",').digest('hex'),
    })
  })

  it('drops personal fields at any depth, or keeps them with personal: false', async () => {
    const drop = setup({ personal: { fields: ['external_user_id', 'email'], action: 'drop' } })
    const keep = setup({ personal: false })
    const body = gesture(9, { external_user_id: 'bob', data: { email: 'bob@example.com', n: 9 } })
    await drop.receiver.handle(await signed(body))
    await keep.receiver.handle(await signed(body))
    await Promise.all([drop.capture.flush(), keep.capture.flush()])
    const dropped = JSON.parse(drop.sink.records[0]?.request.body as string)
    expect(dropped.external_user_id).toBeUndefined()
    expect(dropped.data).toEqual({ n: 9 })
    expect(drop.sink.records[0]?.request.personal?.action).toBe('drop')
    expect(keep.sink.records[0]?.request.body).toBe(body)
    expect(keep.sink.records[0]?.request.personal).toBeUndefined()
  })

  it('redacts secrets-bearing headers by default, the ones it is told to, and the signature always', async () => {
    const secrets = { authorization: 'Bearer t', cookie: 'session=1', 'x-api-key': 'k_1', 'proxy-authorization': 'p' }
    const byDefault = setup()
    const withSecrets = await signed(gesture(10))
    await byDefault.receiver.handle({ ...withSecrets, headers: { ...(withSecrets.headers as object), ...secrets } })
    await byDefault.capture.flush()
    const kept = byDefault.sink.records[0]?.request.headers
    for (const name of [...Object.keys(secrets), 'x-service-signature']) expect(kept?.[name]).toBe('[redacted]')
    expect(kept?.['x-trace']).toBe('abc')

    // A list of its own replaces the default one, but never lets the signature through.
    const custom = setup({ redact: ['x-trace'] })
    await custom.receiver.handle(await signed(gesture(10)))
    await custom.capture.flush()
    expect(custom.sink.records[0]?.request.headers['x-trace']).toBe('[redacted]')
    expect(custom.sink.records[0]?.request.headers['x-service-signature']).toBe('[redacted]')
    const none = setup({ redact: [] })
    await none.receiver.handle(await signed(gesture(10)))
    await none.capture.flush()
    expect(none.sink.records[0]?.request.headers['x-service-signature']).toBe('[redacted]')

    const sink = memorySink()
    const capture = createCapture({ sink, logger: silentLogger })
    const renamed = createReceiver({
      secret,
      now: () => nowMs,
      logger: silentLogger,
      capture,
      headers: { signature: 'x-sig' },
    })
    const request = await signed(gesture(11))
    const headers = request.headers as Record<string, string>
    await renamed.handle({ ...request, headers: { ...headers, 'x-sig': headers['x-service-signature'] as string } })
    await capture.flush()
    expect(sink.records[0]?.request.headers['x-sig']).toBe('[redacted]')
  })

  it('redacts the signature and credentials of a Fetch Request, as the Fetch-based adapters hand it over', async () => {
    const sink = memorySink()
    const capture = createCapture({ sink, logger: silentLogger })
    const receiver = createReceiver({ secret, now: () => nowMs, logger: silentLogger, capture })
    receiver.on('gesture', () => vibe('tap'))
    const body = gesture(17)
    const signedRequest = await signed(body)
    const headers = new Headers(signedRequest.headers as Record<string, string>)
    headers.set('authorization', 'Bearer sk_live_secret')
    headers.set('cookie', 'session=secret')
    const request = new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body })
    expect((await receiver.fetch(request)).status).toBe(200)
    // A Headers object handed to handle() directly, as the Hono and h3 adapters do, with a wrong signature.
    const forged = new Headers(headers)
    forged.set('x-service-signature', `sha256=${'0'.repeat(64)}`)
    expect((await receiver.handle({ method: 'POST', headers: forged, rawBody: signedRequest.rawBody })).status).toBe(
      401,
    )
    await capture.flush()
    expect(sink.records).toHaveLength(2)
    for (const record of sink.records) {
      expect(record.request.headers).toMatchObject({
        'x-service-signature': '[redacted]',
        authorization: '[redacted]',
        cookie: '[redacted]',
        'x-service-timestamp': String(nowMs / 1000),
        'x-trace': 'abc',
      })
      expect(JSON.stringify(record)).not.toMatch(/sha256=|secret/)
    }

    // The receiver's own signature header, renamed: redacted by default though no list names it.
    const renamedSink = memorySink()
    const renamedCapture = createCapture({ sink: renamedSink, logger: silentLogger })
    const renamed = createReceiver({
      secret,
      now: () => nowMs,
      logger: silentLogger,
      capture: renamedCapture,
      headers: { signature: 'x-sig' },
    })
    renamed.on('gesture', () => vibe('tap'))
    const moved = new Headers(headers)
    moved.set('x-sig', headers.get('x-service-signature') as string)
    moved.delete('x-service-signature')
    expect(
      (await renamed.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: moved, body }))).status,
    ).toBe(200)
    await renamedCapture.flush()
    expect(renamedSink.records[0]?.request.headers['x-sig']).toBe('[redacted]')
  })

  it('records header values of any shape an untyped caller passes as text, losing no record', async () => {
    const { sink, capture, receiver } = setup()
    const request = await signed(gesture(12))
    const odd = { 'x-list': ['a', 'b'], 'x-number': 7, 'x-object': { nested: true }, 'x-gone': undefined }
    await receiver.handle({ ...request, headers: { ...(request.headers as Record<string, string>), ...odd } as never })
    await capture.flush()
    expect(capture.stats()).toMatchObject({ written: 1, failed: 0 })
    const headers = sink.records[0]?.request.headers
    expect(headers).toMatchObject({ 'x-list': 'a, b', 'x-number': '7', 'x-object': '[object Object]' })
    expect(headers).not.toHaveProperty('x-gone')
    expect(capturedDeliverySchema.safeParse(sink.records[0]).success).toBe(true)
  })

  it('drops what would pass maxBytes while the sink is busy, and counts it', async () => {
    let release = () => {}
    const writes: CapturedDelivery[][] = []
    const slow: CaptureSink = {
      write: (records) => {
        writes.push([...records])
        return new Promise<void>((resolve) => {
          release = resolve
        })
      },
    }
    const { capture, receiver } = setup({ sink: slow, maxBytes: 4 * 1024, batchSize: 1 })
    const answers = []
    for (let n = 0; n < 20; n++) answers.push((await receiver.handle(await signed(gesture(200 + n)))).status)
    expect(answers.every((status) => status === 200)).toBe(true)
    const { captured, dropped } = capture.stats()
    expect(captured + dropped).toBe(20)
    expect(dropped).toBeGreaterThan(0)
    // Nothing chosen within the budget is lost: each write is let through, in order.
    const flushed = capture.flush()
    while (capture.stats().pending > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      release()
    }
    await flushed
    expect(capture.stats()).toMatchObject({ written: captured, failed: 0, stalled: 0 })
    expect(writes.flat()).toHaveLength(captured)
  })

  it('keeps recording past its budget: what the sink wrote is paid back', async () => {
    // A sink that writes on a later turn, as a file or a database does.
    const sink = memorySink()
    const later: CaptureSink = { write: (batch) => Promise.resolve().then(() => sink.write(batch)) }
    const { capture, receiver } = setup({ sink: later, maxBytes: 4 * 1024 })
    const deliveries = 200
    for (let n = 0; n < deliveries; n++) {
      const answer = await receiver.handle(await signed(gesture(400 + n, { data: { pad: 'x'.repeat(1000) } })))
      expect(answer.status).toBe(200)
      await capture.flush()
    }
    expect(capture.stats()).toMatchObject({ captured: deliveries, written: deliveries, dropped: 0, pending: 0 })
    expect(sink.records).toHaveLength(deliveries)
    // About 1.2 KB of body and answer a record: fifty times the budget went through it.
    const sent = sink.records.reduce((sum, record) => sum + record.request.bytes + record.answer.body.length, 0)
    expect(sent).toBeGreaterThan(50 * 4 * 1024)
  })

  it('hands the sink full batches without waiting, and the rest after delayMs or at flush', async () => {
    const writes: number[] = []
    let wrote = () => {}
    const counting: CaptureSink = {
      write: (records) => {
        writes.push(records.length)
        wrote()
      },
    }
    const written = () => new Promise<void>((resolve) => (wrote = resolve))
    const { capture, receiver } = setup({ sink: counting, batchSize: 3, delayMs: 60_000 })
    const firstWrite = written()
    for (let n = 0; n < 4; n++) await receiver.handle(await signed(gesture(300 + n)))
    await firstWrite
    expect(writes).toEqual([3]) // a full batch went at once; the fourth record waits for others
    expect(capture.stats().pending).toBe(1)
    await capture.flush() // does not wait out the delay
    expect(writes).toEqual([3, 1])

    const quick = setup({ sink: counting, delayMs: 5 })
    const late = written()
    await quick.receiver.handle(await signed(gesture(310)))
    expect(writes).toEqual([3, 1])
    await late // written once its delay passed, with no flush
    expect(writes).toEqual([3, 1, 1])
  })

  it('rejects a negative delayMs', () => {
    expect(() => createCapture({ sink: memorySink(), delayMs: -1 })).toThrow(RinghookConfigError)
  })

  it('does not hold receiver.close() past its timeout when the sink stalls', async () => {
    const { capture, receiver } = setup({ sink: { write: () => new Promise<void>(() => {}) }, timeoutMs: 60_000 })
    await receiver.handle(await signed(gesture(13)))
    await receiver.close({ timeoutMs: 20 })
    expect(capture.stats().pending).toBe(1)
  })

  it('writes what was queued before receiver.close() resolves, without waiting out delayMs', async () => {
    const { sink, receiver } = setup({ delayMs: 60_000 })
    await receiver.handle(await signed(gesture(12)))
    await receiver.close()
    expect(sink.records).toHaveLength(1)
  })
})

describe('a failing sink', () => {
  const warnings = () => {
    const lines: string[] = []
    const logger: Logger = { ...silentLogger, warn: (_fields, message) => void lines.push(message ?? '') }
    return { lines, logger }
  }
  const sinks: Record<string, () => CaptureSink> = {
    throws: () => ({
      write: () => {
        throw new Error('disk on fire')
      },
    }),
    rejects: () => ({ write: () => Promise.reject(new Error('connection reset')) }),
    stalls: () => ({ write: () => new Promise<void>(() => {}) }),
  }

  it.each(Object.keys(sinks))('that %s changes no answer, and is counted and warned about once', async (kind) => {
    const { lines, logger } = warnings()
    const broken = setup({ sink: (sinks[kind] as () => CaptureSink)(), logger, timeoutMs: 20, batchSize: 2 })
    const plain = createReceiver({ secret, now: () => nowMs, logger: silentLogger })
    plain.on('gesture', (event) => {
      if (withExtras(event).data.fail) throw new Error('handler broke')
      return vibe('tap').message('hello')
    })
    const bodies = [
      gesture(20),
      gesture(20),
      gesture(21, { data: { fail: true } }),
      gesture(22),
      gesture(23),
      gesture(24),
    ]
    for (const body of bodies) {
      const [withCapture, without] = await Promise.all([
        broken.receiver.handle(await signed(body)),
        plain.handle(await signed(body)),
      ])
      expect(withCapture).toEqual(without)
    }
    await broken.capture.flush()
    const stats = broken.capture.stats()
    expect(stats.written).toBe(0)
    expect(kind === 'stalls' ? stats.stalled : stats.failed).toBe(bodies.length)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/capture sink/)
  })
})

describe('createCapture options', () => {
  it.each([
    ['no sink', {}],
    ['a sink without write', { sink: {} }],
    ['a sample rate above 1', { sink: memorySink(), sampleRate: 2 }],
    ['an unknown outcome', { sink: memorySink(), outcomes: ['lost'] }],
    ['a zero budget', { sink: memorySink(), maxBytes: 0 }],
    ['an unknown personal action', { sink: memorySink(), personal: { action: 'encrypt' } }],
    ['no rate for unauthenticated deliveries', { sink: memorySink(), unauthenticated: { perSecond: 0 } }],
    ['an endless share for them', { sink: memorySink(), unauthenticated: { maxBytes: Number.POSITIVE_INFINITY } }],
    ['a share above the budget', { sink: memorySink(), maxBytes: 1000, unauthenticated: { maxBytes: 1001 } }],
    ['a negative body prefix', { sink: memorySink(), unauthenticated: { bodyBytes: -1 } }],
  ])('refuses %s', (_name, options) => {
    expect(() => createCapture(options as never)).toThrow(RinghookConfigError)
  })

  it('is the only thing createReceiver takes as capture', () => {
    expect(() => createReceiver({ secret, capture: { sink: memorySink() } as never })).toThrow(/createCapture/)
  })
})
