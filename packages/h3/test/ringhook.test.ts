import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Logger, type ReceiverOptions, vibe } from '@ringhook/core'
import { type CapturedDelivery, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { H3, readBody, toNodeHandler } from 'h3'
import { afterEach, describe, expect, it } from 'vitest'
import { gate } from '../../../test/support/gate.js'
import { ringhook } from '../src/index.js'

const SECRET = 'whsec_h3_test'
let sent = 0

function recordingLogger() {
  const lines: Array<{ fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (fields, message) => void lines.push({ fields, message }),
    child: () => logger,
  }
  return { logger, lines }
}

function gestureReceiver(options: Partial<ReceiverOptions> = {}) {
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, logger: recordingLogger().logger, ...options })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled }
}

async function signedGesture(gestureType = 'double_tap') {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: gestureType,
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, body }
}

const VIBE = (message: string) => ({ success: true, vibe: { sequence: [{ type: 'tap' }], message } })

let close: (() => void) | undefined
afterEach(() => {
  close?.()
  close = undefined
})

/** Serves the app through h3's own Node adapter (srvx), as Nitro's Node preset does. */
async function serve(app: H3): Promise<string> {
  const server = createServer(toNodeHandler(app))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  close = () => {
    server.closeAllConnections()
    server.close()
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('h3 v2', () => {
  it('captures a delivery with its signature and credentials redacted', async () => {
    const records: CapturedDelivery[] = []
    const capture = createCapture({ sink: { write: (batch) => void records.push(...batch) } })
    const { receiver } = gestureReceiver({ capture })
    const app = new H3().post('/webhooks', ringhook(receiver))
    const delivery = await signedGesture()
    const headers = { ...delivery.headers, authorization: 'Bearer sk_live_secret' }
    expect((await fetch(`${await serve(app)}/webhooks`, { ...delivery, headers })).status).toBe(200)
    await capture.flush()
    expect(records).toHaveLength(1)
    expect(records[0]?.request.headers).toMatchObject({
      'x-service-signature': '[redacted]',
      authorization: '[redacted]',
    })
    expect(JSON.stringify(records)).not.toContain(delivery.headers['x-service-signature'])
  })

  it("answers a gesture with its vibe when mounted with app.post('/webhooks')", async () => {
    const { receiver, handled } = gestureReceiver()
    const app = new H3().post('/webhooks', ringhook(receiver))
    const response = await fetch(`${await serve(app)}/webhooks`, await signedGesture('wave 👋🏽 café'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual(VIBE('Got wave 👋🏽 café'))
    expect(handled).toEqual(['wave 👋🏽 café'])
  })

  it("works beside the app's own routes that parse JSON with readBody", async () => {
    const { receiver } = gestureReceiver()
    const app = new H3()
      .post('/webhooks', ringhook(receiver))
      .post('/api/echo', async (event) => ({ got: await readBody(event) }))
    const base = await serve(app)
    expect(await (await fetch(`${base}/webhooks`, await signedGesture())).json()).toEqual(VIBE('Got double_tap'))
    const api = await fetch(`${base}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"note":"hi"}',
    })
    expect(await api.json()).toEqual({ got: { note: 'hi' } })
  })

  it('answers body_already_parsed and logs the fix when a middleware read the body first', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const app = new H3()
      .use(async (event) => {
        // A logging or validation middleware that reads every JSON body.
        if (event.req.method === 'POST') await readBody(event)
      })
      .post('/webhooks', ringhook(receiver))
    const delivery = await signedGesture()
    const response = await fetch(`${await serve(app)}/webhooks`, delivery)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]?.fields).toEqual({ code: 'body_already_parsed' })
    expect(lines[0]?.message).toContain('readBody(event)')
    expect(lines[0]?.message).toContain('skip the webhook route in that middleware')
    expect(JSON.stringify(lines)).not.toContain(delivery.headers['x-service-signature'])
  })

  it('hands work that outlives the response to event.waitUntil', async () => {
    const { receiver } = gestureReceiver({ deadlineMs: 100 })
    let finished = false
    // Held until the answer is in: answered at the 100 ms deadline, still running after it.
    const held = gate()
    receiver.on('app.activated', async () => {
      await held.promise
      finished = true
    })
    const kept: Array<Promise<unknown>> = []
    const app = new H3().post('/webhooks', (event) => {
      // Stands in for a runtime's waitUntil (Workers, Vercel): records what the adapter hands over.
      const waitUntil = event.waitUntil.bind(event)
      event.waitUntil = (promise) => {
        kept.push(promise)
        waitUntil(promise)
      }
      return ringhook(receiver)(event)
    })
    const body = JSON.stringify({ ...JSON.parse((await signedGesture()).body), event: 'app.activated' })
    const { headers } = await signWebhook({ secret: SECRET, body })
    const response = await fetch(`${await serve(app)}/webhooks`, { method: 'POST', headers, body })
    expect(response.status).toBe(200)
    expect(finished).toBe(false)
    expect(kept).toHaveLength(1)
    held.open()
    await kept[0]
    expect(finished).toBe(true)
  })
})
