// What a stranger without the secret can make capture do: refused, unauthenticated deliveries are
// recorded within their own rate and share of the budget, their bodies cut to a prefix and a digest,
// and spelled compactly; personal fields are removed from whatever can hold them, or the record says
// the body was left out; losses are warned about again while they go on.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { type Logger, silentLogger } from '../logger.js'
import { createReceiver } from '../receiver/create-receiver.js'
import type { WebhookRequest } from '../receiver/request.js'
import { signWebhook } from '../signature/sign.js'
import { CAPTURE_WARNING_INTERVAL_MS, createCapture } from './capture.js'
import type { CaptureOptions } from './options.js'
import { hashValue } from './personal.js'
import { type CapturedDelivery, capturedDeliverySchema } from './record.js'
import type { CaptureSink } from './sink.js'

const secret = 'whsec_strangers'
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
  return { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, rawBody: body }
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

const CONTROL = Uint8Array.from({ length: 64_000 + 32 }, (_, i) => i % 32)
/** 64,000 bytes of control characters, a different run for each seed: JSON would spell each in six. */
const controlBytes = (seed: number) => CONTROL.slice(seed % 32, (seed % 32) + 64_000)

/** A request with a signature made with another secret: what a stranger sends. */
async function forgery(body: Uint8Array): Promise<WebhookRequest> {
  forgedHeaders ??= (await signed('anything', 'whsec_wrong')).headers
  return { method: 'POST', headers: forgedHeaders, rawBody: body }
}
let forgedHeaders: WebhookRequest['headers'] | undefined

function setup(options: Partial<CaptureOptions> = {}) {
  const records: CapturedDelivery[] = []
  const sink: CaptureSink = { write: (batch) => void records.push(...batch) }
  let clock = nowMs
  const capture = createCapture({ sink, logger: silentLogger, now: () => clock, ...options })
  const receiver = createReceiver({ secret, now: () => nowMs, logger: silentLogger, capture })
  receiver.on('gesture', () => undefined)
  return {
    records,
    capture,
    receiver,
    tick: (ms: number) => {
      clock += ms
    },
  }
}

describe('unauthenticated deliveries', () => {
  it('a forged flood is recorded at its rate, cut to a prefix and digest, and crowds out no genuine record', async () => {
    const { records, capture, receiver, tick } = setup()
    await receiver.handle(await signed(gesture(1)))
    // 2,000 forged 64 KB bodies of control bytes over two seconds of the capture's clock.
    for (let n = 0; n < 2000; n++) {
      if (n === 1000) tick(1000)
      const answer = await receiver.handle(await forgery(controlBytes(n)))
      expect(answer.status).toBe(401)
    }
    await receiver.handle(await signed(gesture(2)))
    await capture.flush()

    const genuine = records.filter((record) => record.authentic)
    expect(genuine.map((record) => record.event)).toEqual(['gesture', 'gesture'])
    const forged = records.filter((record) => record.authentic === false)
    expect(forged).toHaveLength(20) // 10 a second, for two seconds
    expect(capture.stats()).toMatchObject({ written: 22, limited: 1980, dropped: 0, failed: 0 })
    const first = forged[0] as CapturedDelivery
    expect(first.request).toMatchObject({
      encoding: 'base64',
      bytes: 64_000,
      cut: 'prefix',
      sha256: sha256(controlBytes(0)),
    })
    expect(Buffer.from(first.request.body, 'base64')).toEqual(Buffer.from(controlBytes(0).subarray(0, 1024)))
    expect(capturedDeliverySchema.safeParse(first).success).toBe(true)
    // What is written is bounded: the forgeries' 128 MB became under 2 KiB a record.
    for (const record of forged) expect(JSON.stringify(record).length).toBeLessThan(2048)
  })

  it('keeps their records within their own share of the bytes waiting, leaving the rest to authentic ones', async () => {
    let release = () => {}
    const held: CaptureSink = { write: () => new Promise<void>((resolve) => (release = resolve)) }
    const { capture, receiver } = setup({
      sink: held,
      batchSize: 1,
      maxBytes: 64 * 1024,
      unauthenticated: { maxBytes: 8 * 1024, perSecond: 1000 },
    })
    for (let n = 0; n < 200; n++) await receiver.handle(await forgery(controlBytes(n)))
    const { captured, limited } = capture.stats()
    expect(captured).toBeLessThanOrEqual(6) // 8 KiB of ~1.5 KiB records, the one being written counted
    expect(captured + limited).toBe(200)
    // Authentic deliveries still have the rest of the budget.
    for (let n = 0; n < 20; n++) await receiver.handle(await signed(gesture(10 + n)))
    expect(capture.stats()).toMatchObject({ captured: captured + 20, dropped: 0 })
    release()

    // By default their share is an eighth of a small budget: here 2 KiB, one record.
    const small = setup({ sink: held, batchSize: 1, maxBytes: 16 * 1024, unauthenticated: { perSecond: 1000 } })
    for (let n = 0; n < 20; n++) await small.receiver.handle(await forgery(controlBytes(n)))
    expect(small.capture.stats()).toMatchObject({ captured: 1, limited: 19 })
    release()
  })

  it('keeps a short one whole, and a signed delivery refused for its payload whole and authentic', async () => {
    const { records, capture, receiver } = setup()
    const short = gesture(3)
    await receiver.handle(await signed(short, 'whsec_wrong'))
    const invalid = JSON.stringify({ event: 'gesture', pad: 'x'.repeat(5000) })
    expect((await receiver.handle(await signed(invalid))).status).toBe(400)
    await capture.flush()
    expect(records[0]).toMatchObject({ authentic: false, request: { body: short, encoding: 'utf8' } })
    expect(records[0]?.request.cut).toBeUndefined()
    expect(records[1]).toMatchObject({ authentic: true, code: 'invalid_payload', request: { body: invalid } })
  })

  it('cuts a prefix on a character, and records none with unauthenticated: false', async () => {
    const { records, capture, receiver } = setup({ unauthenticated: { bodyBytes: 10 } })
    await receiver.handle(await signed('{"a":"ééééééé"}', 'whsec_wrong'))
    await capture.flush()
    // 10 bytes end inside the fourth é: the prefix stops before it.
    expect(records[0]?.request).toMatchObject({ body: '{"a":"éé', encoding: 'utf8', cut: 'prefix' })

    const none = setup({ unauthenticated: false })
    await none.receiver.handle(await signed(gesture(4), 'whsec_wrong'))
    await none.receiver.handle({ method: 'GET', headers: {}, rawBody: '' })
    await none.capture.flush()
    expect(none.records).toHaveLength(0)
    expect(none.capture.stats()).toMatchObject({ skipped: 2, limited: 0 })
  })

  it('spells any body with control characters as base64, a sixth of what JSON escapes would take', async () => {
    const { records, capture, receiver } = setup({ unauthenticated: { bodyBytes: 64_000 } })
    const bytes = controlBytes(7)
    await receiver.handle(await forgery(bytes))
    await capture.flush()
    expect(records[0]?.request).toMatchObject({ encoding: 'base64', bytes: 64_000 })
    expect(records[0]?.request.cut).toBeUndefined()
    expect(JSON.stringify(records[0]).length).toBeLessThan(64_000 * 1.4)
    expect(JSON.stringify(new TextDecoder().decode(bytes)).length).toBeGreaterThan(64_000 * 5)
  })
})

describe('personal fields in bodies that cannot be walked', () => {
  it('leaves out a body that is not UTF-8 but names a personal field, saying it was not scanned', async () => {
    const { records, capture, receiver } = setup()
    const bytes = Buffer.concat([
      Buffer.from('{"external_user_id":"alice","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ])
    await receiver.handle(await signed(bytes, 'whsec_wrong'))
    await receiver.handle(await signed(bytes))
    await capture.flush()
    for (const record of records) {
      expect(record.request).toMatchObject({ body: '', cut: 'unscanned', sha256: sha256(bytes) })
      expect(JSON.stringify(record)).not.toContain('alice')
    }
    // Without a personal field in it, such a body is kept as base64.
    const plain = Buffer.from([0x7b, 0xff, 0x7d])
    await receiver.handle(await signed(plain, 'whsec_wrong'))
    await capture.flush()
    expect(records[2]?.request).toMatchObject({ body: plain.toString('base64'), encoding: 'base64' })
  })

  it('leaves out a forgery cut to a prefix that names a personal field', async () => {
    const { records, capture, receiver } = setup()
    const body = JSON.stringify({ external_user_id: 'carol', pad: 'x'.repeat(4000) })
    await receiver.handle(await signed(body, 'whsec_wrong'))
    await capture.flush()
    expect(records[0]?.request).toMatchObject({ body: '', cut: 'unscanned', sha256: sha256(body), bytes: body.length })
    expect(JSON.stringify(records[0])).not.toContain('carol')
  })

  it('leaves out a deeply nested body it cannot walk, records it, and loses nothing', async () => {
    const { records, capture, receiver } = setup({ salt: 'pepper' })
    const deep = `{"external_user_id":"bob","data":${'['.repeat(15_000)}${']'.repeat(15_000)}}`
    await receiver.handle(await signed(deep, 'whsec_wrong'))
    await receiver.handle(await signed(deep, 'whsec_wrong'))
    // Signed, with an escape that makes the values be found from the parse: the same walk.
    const signedDeep = `{"event":"gesture","gesture_type":"t\\u0061p","user_app_id":"u","app_id":"a","timestamp":"2027-01-15T08:00:00.000Z","external_user_id":"bob","data":{"d":${'['.repeat(15_000)}${']'.repeat(15_000)}}}`
    expect((await receiver.handle(await signed(signedDeep))).status).toBe(200)
    await capture.flush()
    expect(capture.stats()).toMatchObject({ written: 3, failed: 0 })
    expect(records.map((record) => record.request.cut)).toEqual(['unscanned', 'unscanned', 'unscanned'])
    expect(records[2]).toMatchObject({ authentic: true, event: 'gesture', request: { sha256: sha256(signedDeep) } })
    for (const record of records) expect(record.request.body).toBe('')
    // A shallow one is still hashed.
    await receiver.handle(await signed(gesture(5, { external_user_id: 'bob' })))
    await capture.flush()
    expect(JSON.parse(records[3]?.request.body as string).external_user_id).toBe(hashValue('bob', 'pepper'))
  })
})

describe('losses', () => {
  const warnings = () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = []
    const logger: Logger = {
      ...silentLogger,
      warn: (fields, message) => void lines.push({ fields: fields as Record<string, unknown>, message: message ?? '' }),
    }
    return { lines, logger }
  }

  it('are warned about again while they go on, at most once an interval, each naming its cause', async () => {
    const { lines, logger } = warnings()
    let fail = true
    const sink: CaptureSink = {
      write: () => {
        if (fail) throw new Error('disk full')
      },
    }
    const { capture, receiver, tick } = setup({ sink, logger, batchSize: 1 })
    const send = async (n: number) => {
      await receiver.handle(await signed(gesture(n)))
      await capture.flush()
    }
    await send(1)
    await send(2)
    expect(lines.map((line) => line.fields)).toEqual([{ lost: 1, reason: 'sink_failed' }])
    tick(CAPTURE_WARNING_INTERVAL_MS - 1)
    await send(3)
    expect(lines).toHaveLength(1)
    tick(1)
    await send(4)
    // Said again, with what was lost since the first warning.
    expect(lines.map((line) => line.fields)).toEqual([
      { lost: 1, reason: 'sink_failed' },
      { lost: 3, reason: 'sink_failed' },
    ])
    expect(lines[1]?.message).toMatch(/capture sink failed \(.*disk full/)
    fail = false
    await send(5)
    expect(capture.stats()).toMatchObject({ failed: 4, written: 1 })
    expect(lines).toHaveLength(2)
  })

  it('past the budget are warned about too, apart from a sink that fails', async () => {
    const { lines, logger } = warnings()
    const held: CaptureSink = { write: () => new Promise<void>(() => {}) }
    const { capture, receiver } = setup({ sink: held, logger, maxBytes: 2048, batchSize: 1 })
    for (let n = 0; n < 5; n++) await receiver.handle(await signed(gesture(n)))
    expect(capture.stats().dropped).toBeGreaterThan(0)
    expect(lines.map((line) => line.fields.reason)).toEqual(['over_budget'])
    expect(lines[0]?.message).toMatch(/maxBytes \(2048 bytes\)/)
  })
})
