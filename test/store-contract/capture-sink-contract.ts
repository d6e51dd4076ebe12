// The contract every capture sink keeps (`CaptureSink` of @ringhook/core/capture), read back through
// its own reader: what `replay()` and `ringhook replay` rely on, whichever sink wrote the records.
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { type CapturedDelivery, type CaptureSink, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** A sink writing to a place of its own, and that place's reader. */
export interface SinkUnderTest {
  sink: CaptureSink
  /** Every record the place holds, authenticated or not, in the order the deliveries arrived. */
  read(): Promise<CapturedDelivery[]>
}

/** One open backend: fresh sinks on it, and how to let it go. */
export interface CaptureSinkHarness {
  /** A new sink on a place (file, stream, table) no other test writes to. */
  fresh(): Promise<SinkUnderTest>
  /** Releases the backend's connections and deletes what it created. */
  close(): Promise<void>
}

/** A capture sink to run the contract on. */
export interface CaptureSinkKind {
  name: string
  open(): Promise<CaptureSinkHarness>
}

const BASE = Date.UTC(2027, 0, 15, 8)

/** A record as a capture makes one, the `n`th to arrive. */
const record = (n: number, changes: Partial<CapturedDelivery> & { body?: string } = {}): CapturedDelivery => {
  const { body, ...rest } = changes
  const text = body ?? `{"event":"gesture","n":${n}}`
  return {
    v: 1,
    id: `record-${n}`,
    receivedAt: new Date(BASE + n).toISOString(),
    event: 'gesture',
    request: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ring-signature': '[redacted]' },
      body: text,
      encoding: 'utf8',
      bytes: Buffer.byteLength(text),
    },
    answer: { status: 200, headers: {}, body: '{"success":true}' },
    outcome: 'accepted',
    authentic: true,
    ...rest,
  }
}

const secret = 'whsec_capture_contract'

/** Defines the contract's tests for one kind of capture sink, inside the caller's `describe`. */
export function captureSinkContract(kind: CaptureSinkKind): void {
  let harness: CaptureSinkHarness
  beforeAll(async () => {
    harness = await kind.open()
  })
  afterAll(async () => {
    await harness?.close()
  })

  it('reads back every record of its batches equal, in the order they arrived', async () => {
    const { sink, read } = await harness.fresh()
    const batches = [[record(1), record(2)], [record(3)], Array.from({ length: 5 }, (_, i) => record(4 + i))]
    for (const batch of batches) await sink.write(batch)
    await sink.close?.()
    expect(await read()).toEqual(batches.flat())
  })

  it('keeps unauthenticated deliveries beside authenticated ones, both read back in arrival order', async () => {
    const { sink, read } = await harness.fresh()
    const stranger = (n: number) =>
      record(n, { authentic: false, outcome: 'refused', code: 'invalid_signature', event: undefined })
    const batch = [record(1), stranger(2), stranger(3), record(4), stranger(5)]
    // The optional `event` left out, as a capture leaves it: not `undefined` in a record.
    for (const r of batch) if (r.event === undefined) delete r.event
    await sink.write(batch)
    await sink.close?.()
    expect(await read()).toEqual(batch)
  })

  it('keeps odd text whole: NUL, lone surrogates, astral characters, base64 bodies', async () => {
    const { sink, read } = await harness.fresh()
    const batch = [
      record(1, { body: '{"note":"a\u0000b"}' }),
      record(2, { request: { ...record(2).request, headers: { 'x-odd': 'x\ud800y' } } }),
      record(3, { answer: { status: 200, headers: {}, body: '\udc00 🛎️ Grüße "quoted" \\ back\nslash' } }),
      record(4, {
        request: {
          ...record(4).request,
          body: Buffer.from([0, 255, 1]).toString('base64'),
          encoding: 'base64',
          bytes: 3,
        },
      }),
      record(5, { body: '{"note":"\\u0000","pair":"\\ud83d\\ude00"}' }),
      record(6, { id: 'id-with-\u0000-nul' }),
    ]
    await sink.write(batch)
    await sink.close?.()
    expect(await read()).toEqual(batch)
  })

  it('takes a batch of a thousand records at once', async () => {
    const { sink, read } = await harness.fresh()
    const batch = Array.from({ length: 1000 }, (_, i) => record(i))
    await sink.write(batch)
    await sink.close?.()
    const back = await read()
    expect(back).toHaveLength(1000)
    expect(back).toEqual(batch)
  })

  it('holds what a capture behind a receiver wrote, every outcome, as the capture made it', async () => {
    const { sink, read } = await harness.fresh()
    const written: CapturedDelivery[] = []
    const capture = createCapture({
      sink: {
        write: async (records) => {
          written.push(...records)
          await sink.write(records)
        },
        close: () => sink.close?.(),
      },
      logger: silentLogger,
    })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    receiver.on('gesture', (event) => {
      if (event.user_app_id === 'user_2') throw new Error('handler broke')
      return vibe('tap')
    })
    for (const [n, key] of [
      [1, secret],
      [2, secret],
      [3, 'whsec_stranger'],
    ] as const) {
      const body = JSON.stringify({
        event: 'gesture',
        gesture_type: 'tap',
        user_app_id: `user_${n}`,
        app_id: 'app_contract',
        timestamp: new Date(BASE + n).toISOString(),
        data: {},
      })
      const { headers } = await signWebhook({ secret: key, body })
      await receiver.handle({ method: 'POST', headers, rawBody: body })
    }
    await capture.flush()
    await receiver.close()
    await capture.close()
    expect(capture.stats()).toMatchObject({ captured: 3, written: 3, failed: 0 })
    expect(written.map((r) => r.outcome)).toEqual(['accepted', 'failed', 'refused'])
    expect(await read()).toEqual(written)
  })
}
