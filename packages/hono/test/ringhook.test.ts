import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { createReceiver, type Logger, type RinghookError, vibe } from '@ringhook/core'
import { type CapturedDelivery, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { gate } from '../../../test/support/gate.js'
import { ringhook } from '../src/index.js'

const SECRET = 'whsec_hono_test'
const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

function recordingLogger() {
  const lines: Array<{ fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => void lines.push({ fields, message }),
    error: (fields, message) => void lines.push({ fields, message }),
    child: () => logger,
  }
  return { logger, lines }
}

function gestureApp(logger: Logger = recordingLogger().logger) {
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, logger })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled, app: new Hono() }
}

async function signedGesture(overrides: Record<string, unknown> = {}, indent?: number) {
  const payload = {
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: 'u-1',
    app_id: 'app_demo',
    timestamp: new Date().toISOString(),
    data: {},
    ...overrides,
  }
  const body = JSON.stringify(payload, null, indent)
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, body }
}

describe('through app.request()', () => {
  it('answers a gesture with its vibe', async () => {
    const { receiver, app, handled } = gestureApp()
    app.post('/webhooks', ringhook(receiver))
    const response = await app.request('/webhooks', await signedGesture())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it('rejects a bad signature with 401', async () => {
    const { receiver, app, handled } = gestureApp()
    app.post('/webhooks', ringhook(receiver))
    const delivery = await signedGesture()
    const response = await app.request('/webhooks', {
      ...delivery,
      headers: { ...delivery.headers, 'x-service-signature': `sha256=${'0'.repeat(64)}` },
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } })
    expect(handled).toEqual([])
  })

  it("hands work that outlives the response to Workers' executionCtx.waitUntil", async () => {
    const receiver = createReceiver({ secret: SECRET, logger: recordingLogger().logger, deadlineMs: 50 })
    let finished = false
    const failures: RinghookError[] = []
    // Held until the answer is in: answered at the 50 ms deadline, still running after it.
    const held = gate()
    receiver.on('app.installed', async () => {
      await held.promise
      finished = true
    })
    receiver.onError((error) => void failures.push(error))
    const app = new Hono()
    app.post('/webhooks', ringhook(receiver))
    const kept: Promise<unknown>[] = []
    const executionCtx = {
      waitUntil: (promise: Promise<unknown>) => void kept.push(promise),
      passThroughOnException() {},
      props: {},
    }
    const delivery = await signedGesture({ event: 'app.installed', gesture_type: undefined })
    const response = await app.request('/webhooks', delivery, {}, executionCtx)
    expect(response.status).toBe(200)
    expect(finished).toBe(false)
    expect(kept).toHaveLength(1)
    held.open()
    await kept[0]
    expect(finished).toBe(true)
    expect(failures).toEqual([])
  })

  it('uses the body an earlier middleware read with c.req.json()', async () => {
    const { receiver, app, handled } = gestureApp()
    let peeked: unknown
    app.use('/webhooks', async (c, next) => {
      peeked = await c.req.json()
      await next()
    })
    app.post('/webhooks', ringhook(receiver))
    // Indented JSON: a re-serialised body would lose the whitespace and fail the signature.
    const response = await app.request('/webhooks', await signedGesture({}, 2))
    expect(await response.json()).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
    expect(peeked).toMatchObject({ gesture_type: 'double_tap' })
  })

  it('fails with body_already_parsed and logs the fix when c.req.raw was consumed', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, app, handled } = gestureApp(logger)
    app.use('/webhooks', async (c, next) => {
      await c.req.raw.text()
      await next()
    })
    app.post('/webhooks', ringhook(receiver))
    const response = await app.request('/webhooks', await signedGesture())
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]?.fields).toEqual({ code: 'body_already_parsed' })
    expect(lines[0]?.message).toContain('Mount ringhook before that middleware')
  })
})

describe('on @hono/node-server', () => {
  let close: (() => void) | undefined
  afterEach(() => close?.())

  it("answers a gesture with its vibe beside the app's other routes", async () => {
    const { receiver, app } = gestureApp()
    app.get('/health', (c) => c.text('ok'))
    app.post('/webhooks', ringhook(receiver))
    const server = createAdaptorServer({ fetch: app.fetch })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    close = () => server.close()
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const response = await fetch(`${base}/webhooks`, await signedGesture())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(VIBE)
    expect(await (await fetch(`${base}/health`)).text()).toBe('ok')
  })

  it('captures a delivery with its signature and credentials redacted', async () => {
    const records: CapturedDelivery[] = []
    const capture = createCapture({ sink: { write: (batch) => void records.push(...batch) } })
    const receiver = createReceiver({ secret: SECRET, logger: recordingLogger().logger, capture })
    receiver.on('gesture', () => vibe('tap'))
    const app = new Hono()
    app.post('/webhooks', ringhook(receiver))
    const server = createAdaptorServer({ fetch: app.fetch })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    close = () => server.close()
    const delivery = await signedGesture()
    const headers = { ...delivery.headers, authorization: 'Bearer sk_live_secret' }
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
    expect((await fetch(url, { ...delivery, headers })).status).toBe(200)
    await capture.flush()
    expect(records).toHaveLength(1)
    expect(records[0]?.request.headers).toMatchObject({
      'x-service-signature': '[redacted]',
      authorization: '[redacted]',
    })
    expect(JSON.stringify(records)).not.toContain(delivery.headers['x-service-signature'])
  })
})
