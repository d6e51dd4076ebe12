import { once } from 'node:events'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger } from '@ringhook/core'
import { signEvent, signed } from '@ringhook/testing'
import express5 from 'express'
import express4 from 'express4'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import {
  gestureReceiver,
  gestureText,
  recordingLogger,
  SECRET,
  statusLineWithoutBody,
} from '../../../test/support/adapter-kit.js'
import { type ExpressRequest, ringhook } from '../src/index.js'

// Each delivery is signed over gestureText(): spaces, keys in reverse order and an escaped "é", which
// no re-serialised body gives back, so only the exact bytes sent verify.
const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

let close: (() => void) | undefined
afterEach(() => {
  close?.()
  close = undefined
})

/** For the one test supertest cannot write (a head without its body): the app on a port of its own. */
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
    const response = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(response.status).toBe(200)
    expect(response.body).toEqual(VIBE)
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
    const webhook = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(webhook.body).toEqual(VIBE)
    const api = await request(app).post('/api/echo').send({ note: 'hi' })
    expect(api.body).toEqual({ got: { note: 'hi' } })
  })

  it('fails with body_already_parsed and logs the fix when express.json() consumed the body', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const app = express()
    app.use(express.json())
    app.post('/webhooks', ringhook(receiver))
    const delivery = await signEvent({ secret: SECRET, payload: gestureText() })
    const response = await request(app).post('/webhooks').set(delivery.headers).send(delivery.body)
    expect(response.status).toBe(500)
    expect(response.body).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
    expect(lines[0]?.message).toContain('above app.use(express.json())')
    expect(lines[0]?.message).toContain('express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })')
    const logged = JSON.stringify(lines)
    expect(logged).not.toContain(SECRET)
    expect(logged).not.toContain(delivery.signature)
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
    const response = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(response.body).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it('uses the Buffer express.raw() left in req.body', async () => {
    const { receiver } = gestureReceiver()
    const app = express()
    app.post('/webhooks', express.raw({ type: 'application/json' }), ringhook(receiver))
    const response = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(response.body).toEqual(VIBE)
  })

  it('still rejects a bad signature with 401 when the raw body was kept', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const app = express()
    app.post('/webhooks', express.raw({ type: 'application/json' }), ringhook(receiver))
    const { body, headers } = await signEvent({ secret: SECRET, payload: gestureText() })
    // One space more than was signed.
    const response = await request(app).post('/webhooks').set(headers).send(`${body} `)
    expect(response.status).toBe(401)
    expect(handled).toEqual([])
    expect(lines[0]?.fields).toMatchObject({ code: 'unauthorized', reason: 'signature_mismatch' })
  })
})
