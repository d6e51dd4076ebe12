import { describe, expect, expectTypeOf, it } from 'vitest'
import type { DedupStore } from '../dedup/store.js'
import { RinghookConfigError } from '../errors.js'
import type { Logger } from '../logger.js'
import { silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import { createReceiver } from './create-receiver.js'
import type { WebhookRequest } from './request.js'

const secret = 'whsec_receiver'
const nowMs = 1_800_000_000_000
const base = { secret, now: () => nowMs, logger: silentLogger }
const payload = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'u1',
    app_id: 'app_1',
    timestamp: '2026-11-22T10:00:00.000Z',
    data: {},
    ...extra,
  })

async function request(body: string, rawBody: WebhookRequest['rawBody'] = body): Promise<WebhookRequest> {
  const { headers } = await signWebhook({ secret, body, timestamp: nowMs / 1000 })
  return { method: 'POST', headers, rawBody }
}

async function* chunks(parts: string[], gapMs = 0) {
  for (const part of parts) {
    if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs))
    yield new TextEncoder().encode(part)
  }
}

describe('createReceiver options', () => {
  it.each([
    ['no secret', {}],
    ['an empty secret', { secret: '' }],
    ['an empty rotation list', { secret: [] }],
    ['a negative tolerance', { secret, toleranceSeconds: -1 }],
    ['a deadline the service would not wait for', { secret, deadlineMs: 30_000 }],
    ['a zero body limit', { secret, maxBodyBytes: 0 }],
  ])('refuses %s', (_name, options) => {
    expect(() => createReceiver(options as never)).toThrow(/secret|tolerance|deadline|maxBodyBytes/)
  })

  it('throws a typed configuration error', () => {
    expect(() => createReceiver({ secret: '' })).toThrow(RinghookConfigError)
  })
})

describe('receiver.handle', () => {
  it('reads a streamed body in chunks', async () => {
    const body = payload()
    const receiver = createReceiver(base)
    const response = await receiver.handle(await request(body, chunks([body.slice(0, 10), body.slice(10)])))
    expect(response.status).toBe(200)
  })

  it('reads a web ReadableStream body', async () => {
    const body = payload()
    const stream = new Response(body).body
    const response = await createReceiver(base).handle(await request(body, stream))
    expect(response.status).toBe(200)
  })

  it('stops reading a stream at the size limit', async () => {
    let pulled = 0
    async function* endless() {
      for (;;) {
        pulled++
        yield new Uint8Array(1024)
      }
    }
    const receiver = createReceiver({ ...base, maxBodyBytes: 4096 })
    const response = await receiver.handle(await request('{}', endless()))
    expect(response.status).toBe(413)
    expect(pulled).toBe(5)
  })

  it('answers 413 from Content-Length before reading', async () => {
    const receiver = createReceiver({ ...base, maxBodyBytes: 10 })
    const req = await request(payload())
    const response = await receiver.handle({ ...req, headers: { ...(req.headers as object), 'content-length': '999' } })
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'payload_too_large' } })
  })

  it('answers 408 to a body that trickles slower than bodyTimeoutMs', async () => {
    const body = payload()
    const receiver = createReceiver({ ...base, bodyTimeoutMs: 50 })
    const response = await receiver.handle(await request(body, chunks([body.slice(0, 5), body.slice(5)], 200)))
    expect(response.status).toBe(408)
  })

  it('rejects invalid UTF-8 as invalid JSON', async () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d])
    const { headers } = await signWebhook({ secret, body: bytes, timestamp: nowMs / 1000 })
    const response = await createReceiver(base).handle({ method: 'POST', headers, rawBody: bytes })
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'invalid_json' } })
  })

  it('routes an unknown event to onAny only, and acknowledges it', async () => {
    const seen: string[] = []
    const receiver = createReceiver(base)
      .on('gesture', () => void seen.push('gesture handler'))
      .onAny((event) => void seen.push(event.event))
    const response = await receiver.handle(await request(payload({ event: 'slot.expired' })))
    expect(response).toMatchObject({ status: 200, body: '{"ok":true}' })
    expect(seen).toEqual(['slot.expired'])
  })

  it('sends the first registered reply when several gesture handlers answer', async () => {
    const receiver = createReceiver(base)
      .on('gesture', async () => vibe('pulse'))
      .on('gesture', () => vibe('tap'))
    const response = await receiver.handle(await request(payload()))
    expect(JSON.parse(response.body)).toEqual({ success: true, vibe: { sequence: [{ type: 'pulse' }] } })
  })

  it('stops calling a handler removed with off()', async () => {
    let calls = 0
    const handler = () => void calls++
    const receiver = createReceiver(base).on('gesture', handler).off(handler)
    await receiver.handle(await request(payload()))
    expect(calls).toBe(0)
  })

  it('gives handlers a logger bound to the delivery and its metadata', async () => {
    const bindings: Record<string, unknown>[] = []
    const logger: Logger = {
      ...silentLogger,
      child: (b) => {
        bindings.push(b)
        return silentLogger
      },
    }
    let delivery: unknown
    const receiver = createReceiver({ ...base, logger }).on('gesture', (_e, ctx) => {
      delivery = ctx.delivery
      ctx.logger.info({}, 'handled')
    })
    await receiver.handle(await request(payload()))
    expect(bindings).toHaveLength(1)
    expect(bindings[0]).toMatchObject({
      event: 'gesture',
      delivery_key: expect.stringContaining('app_1'),
      timestamp: 1_800_000_000,
    })
    expect(delivery).toMatchObject({ secretIndex: 0, signedAt: 1_800_000_000, eventId: undefined })
  })

  it('makes the child logger only for handlers that use it', async () => {
    let children = 0
    const logger: Logger = {
      ...silentLogger,
      child: () => {
        children++
        return silentLogger
      },
    }
    const receiver = createReceiver({ ...base, logger }).on('gesture', () => {})
    expect((await receiver.handle(await request(payload()))).status).toBe(200)
    expect(children).toBe(0)
  })

  describe('when the store fails', () => {
    const broken: DedupStore = {
      claim: () => Promise.reject(new Error('ECONNREFUSED')),
      complete: () => Promise.resolve(),
      release: () => Promise.resolve(),
    }

    it('answers 503 by default, without running handlers', async () => {
      let calls = 0
      const receiver = createReceiver({ ...base, store: broken }).on('gesture', () => void calls++)
      const response = await receiver.handle(await request(payload()))
      expect(response.status).toBe(503)
      expect(response.headers['retry-after']).toBe('1')
      expect(calls).toBe(0)
    })

    it('treats a store that throws synchronously like one that rejects', async () => {
      const throwing: DedupStore = {
        claim: () => {
          throw new Error('store bug')
        },
        complete: () => {},
        release: () => {},
      }
      const errors: string[] = []
      const receiver = createReceiver({ ...base, store: throwing }).onError((error) => void errors.push(error.code))
      const response = await receiver.handle(await request(payload()))
      expect(response.status).toBe(503)
      expect(errors).toEqual(['store_unavailable'])
    })

    it('reports a completion that fails synchronously and still sends the reply', async () => {
      const errors: string[] = []
      const store: DedupStore = {
        claim: () => ({ state: 'claimed', token: 't' }),
        complete: () => {
          throw new Error('disk full')
        },
        release: () => {},
      }
      const receiver = createReceiver({ ...base, store })
        .on('gesture', () => vibe('tap'))
        .onError((error) => void errors.push(error.code))
      const response = await receiver.handle(await request(payload()))
      expect(response.status).toBe(200)
      expect(errors).toEqual(['store_unavailable'])
    })

    it("runs handlers undeduplicated with onStoreError: 'process'", async () => {
      const receiver = createReceiver({ ...base, store: broken, onStoreError: 'process' }).on('gesture', () =>
        vibe('tap'),
      )
      const response = await receiver.handle(await request(payload()))
      expect(response.status).toBe(200)
      expect(JSON.parse(response.body)).toMatchObject({ vibe: { sequence: [{ type: 'tap' }] } })
    })
  })

  it('asks a secret resolver with the payload’s app id, and with none when it has no string one', async () => {
    const asked: Array<string | undefined> = []
    const receiver = createReceiver({
      ...base,
      secret: ({ appId }) => {
        asked.push(appId)
        return secret
      },
    })
    for (const body of [payload(), payload({ app_id: 42 }), 'null', 'not json'])
      await receiver.handle(await request(body))
    expect(asked).toEqual(['app_1', undefined, undefined, undefined])
  })

  it('answers 503 when the secret resolver fails', async () => {
    const receiver = createReceiver({ ...base, secret: () => Promise.reject(new Error('vault down')) })
    const response = await receiver.handle(await request(payload()))
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'secret_unavailable' } })
  })

  it('lets only gesture handlers return a reply (types)', () => {
    const receiver = createReceiver(base)
    receiver.on('gesture', () => vibe('tap'))
    receiver.on('gesture', async () => ({ sequence: [{ type: 'tap' as const }] }))
    receiver.on('app.installed', () => {})
    // @ts-expect-error lifecycle handlers cannot answer with a vibe
    receiver.on('app.installed', () => vibe('tap'))
    // @ts-expect-error a handler for several events cannot answer either
    receiver.on(['gesture', 'app.installed'], () => vibe('tap'))
    receiver.on('notification.responded', (event) => {
      expectTypeOf(event.data.response).toEqualTypeOf<'yes' | 'no' | 'dismiss' | `emoji:${string}`>()
    })
  })
})

describe('receiver.close() after streamed deliveries that failed', () => {
  // A streamed delivery is counted for close() from its body's read to its answer. A count left
  // behind by a failure would hold every later close() until its timeout.
  it('is not held by a body read that rejects, a store that rejects, or one that throws', async () => {
    const failingStore = (claim: () => never | Promise<never>): DedupStore => ({
      claim,
      complete: () => undefined,
      release: () => undefined,
    })
    const streamed = (body: string) => ({
      readBody: async () => ({ ok: true as const, bytes: new TextEncoder().encode(body) }),
    })
    const cases: { store?: DedupStore; rawBody: (body: string) => WebhookRequest['rawBody'] }[] = [
      { rawBody: () => ({ readBody: () => Promise.reject(new Error('socket gone')) }) },
      { store: failingStore(() => Promise.reject(new Error('store down'))), rawBody: streamed },
      {
        store: failingStore(() => {
          throw new Error('store bug')
        }),
        rawBody: streamed,
      },
    ]
    for (const { store, rawBody } of cases) {
      const receiver = createReceiver({ ...base, ...(store ? { store } : {}) })
      receiver.on('gesture', () => undefined)
      const body = payload()
      const answers = await Promise.all([1, 2, 3].map(async () => receiver.handle(await request(body, rawBody(body)))))
      for (const answer of answers) expect(answer.status).toBeGreaterThanOrEqual(500)
      expect(await receiver.close({ timeoutMs: 200 })).toEqual({ drained: true, pending: 0 })
    }
  })
})

describe('receiver.close() while handlers run past the deadline', () => {
  // The deadline's answer goes out while the handlers keep running: close() waits for them, the
  // delivery counted once from its first wait to its end, never let go of in between.
  it.each(['acknowledge', 'retry'] as const)(
    'waits for them once the deadline answered (onDeadline: %s)',
    async (onDeadline) => {
      const receiver = createReceiver({ ...base, deadlineMs: 20, onDeadline })
      let finish: () => void = () => undefined
      let started: () => void = () => undefined
      const running = new Promise<void>((resolve) => {
        started = resolve
      })
      receiver.on('gesture', () => {
        started()
        return new Promise<undefined>((resolve) => {
          finish = () => resolve(undefined)
        })
      })
      const answered = receiver.handle(await request(payload()))
      await running
      const closed = receiver.close({ timeoutMs: 5_000 })
      expect((await answered).status).toBe(onDeadline === 'acknowledge' ? 200 : 503)
      let settled = false
      void closed.then(() => {
        settled = true
      })
      await new Promise(setImmediate) // every reaction to the deadline's answer has run
      expect(settled).toBe(false)
      finish()
      expect(await closed).toEqual({ drained: true, pending: 0 })
    },
  )
})
