import { once } from 'node:events'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Logger, type Receiver, silentLogger, vibe } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import express5 from 'express'
import express4 from 'express4'
import { afterEach, describe, expect, it } from 'vitest'
import { rawJson, statusLineWithoutBody } from '../../../test/support/adapter-kit.js'
import { type ExpressRequest, ringhook } from '../src/index.js'

const SECRET = 'whsec_express_test'

/** A logger that keeps every line, to check what the app developer is told. */
function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => void lines.push({ level: 'error', fields, message }),
    child: () => logger,
  }
  return { logger, lines }
}

function gestureReceiver(logger?: Logger) {
  const handled: string[] = []
  const receiver: Receiver = createReceiver({ secret: SECRET, ...(logger ? { logger } : {}) })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled }
}

async function signedGesture() {
  const body = rawJson({
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: 'u-1',
    app_id: 'app_demo',
    timestamp: new Date().toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, body }
}

const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

let close: (() => void) | undefined
afterEach(() => {
  close?.()
  close = undefined
})

async function serve(app: RequestListener): Promise<string> {
  const server = createServer(app)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  close = () => {
    server.closeAllConnections()
    server.close()
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe.each([
  { major: 'Express 4', express: express4 as unknown as typeof express5 },
  { major: 'Express 5', express: express5 },
])('$major', ({ express }) => {
  it("answers a gesture with its vibe when mounted with app.post('/webhooks')", async () => {
    const { receiver, handled } = gestureReceiver()
    const app = express()
    app.post('/webhooks', ringhook(receiver))
    const response = await fetch(`${await serve(app)}/webhooks`, await signedGesture())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it('answers a Content-Length over maxBodyBytes before any byte of the body arrives', async () => {
    // A body timeout past the test's own: an adapter that waited for the body could not answer in time.
    const receiver = createReceiver({ secret: SECRET, logger: silentLogger, maxBodyBytes: 1000, bodyTimeoutMs: 60_000 })
    const app = express()
    app.post('/webhooks', ringhook(receiver))
    const statusLine = await statusLineWithoutBody(await serve(app), 'POST', 'application/json', 2000)
    expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large')
  }, 5000)

  it("works with app.use('/webhooks') beside the app's JSON routes", async () => {
    const { receiver } = gestureReceiver()
    const app = express()
    app.use('/webhooks', ringhook(receiver))
    app.use(express.json())
    app.post('/api/echo', (req, res) => void res.json({ got: req.body }))
    const base = await serve(app)
    const webhook = await fetch(`${base}/webhooks`, await signedGesture())
    expect(await webhook.json()).toEqual(VIBE)
    const api = await fetch(`${base}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"note":"hi"}',
    })
    expect(await api.json()).toEqual({ got: { note: 'hi' } })
  })

  it('fails with body_already_parsed and logs the fix when express.json() consumed the body', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver(logger)
    const app = express()
    app.use(express.json())
    app.post('/webhooks', ringhook(receiver))
    const delivery = await signedGesture()
    const response = await fetch(`${await serve(app)}/webhooks`, delivery)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
    expect(lines[0]?.message).toContain('above app.use(express.json())')
    expect(lines[0]?.message).toContain('express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })')
    const logged = JSON.stringify(lines)
    expect(logged).not.toContain(SECRET)
    expect(logged).not.toContain(delivery.headers['x-service-signature'])
  })

  it('uses the raw body an express.json() verify hook kept', async () => {
    const { receiver, handled } = gestureReceiver()
    const app = express()
    app.use(
      express.json({
        verify: (req, _res, buf) => {
          ;(req as ExpressRequest).rawBody = buf
        },
      }),
    )
    app.post('/webhooks', ringhook(receiver))
    const response = await fetch(`${await serve(app)}/webhooks`, await signedGesture())
    expect(await response.json()).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it('uses the Buffer express.raw() left in req.body', async () => {
    const { receiver } = gestureReceiver()
    const app = express()
    app.post('/webhooks', express.raw({ type: 'application/json' }), ringhook(receiver))
    const response = await fetch(`${await serve(app)}/webhooks`, await signedGesture())
    expect(await response.json()).toEqual(VIBE)
  })

  it('still rejects a bad signature with 401 when the raw body was kept', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver(logger)
    const app = express()
    app.post('/webhooks', express.raw({ type: 'application/json' }), ringhook(receiver))
    const delivery = await signedGesture()
    const response = await fetch(`${await serve(app)}/webhooks`, { ...delivery, body: `${delivery.body} ` })
    expect(response.status).toBe(401)
    expect(handled).toEqual([])
    expect(lines[0]?.fields).toMatchObject({ code: 'unauthorized', reason: 'signature_mismatch' })
  })
})
