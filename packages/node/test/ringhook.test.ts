import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { afterEach, describe, expect, it } from 'vitest'
import { REFUSED_FROM_HEAD, rawJson, statusLineWithoutBody } from '../../../test/support/adapter-kit.js'
import { ringhook } from '../src/index.js'

const SECRET = 'whsec_node_test'
const servers: Server[] = []

async function listen(server: Server): Promise<string> {
  servers.push(server.listen(0, '127.0.0.1'))
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function signedGesture() {
  const body = rawJson({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'u-1',
    app_id: 'app_demo',
    timestamp: new Date().toISOString(),
    data: {},
  })
  return { method: 'POST', body, headers: (await signWebhook({ secret: SECRET, body })).headers }
}

describe('ringhook', () => {
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger })
  receiver.on('gesture', () => ({ sequence: [{ type: 'tap' as const }] }))

  it('handles its path, with or without a query string', async () => {
    const base = await listen(createServer(ringhook(receiver, { path: '/hooks' })))
    const response = await fetch(`${base}/hooks?source=ring`, await signedGesture())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ success: true, vibe: { sequence: [{ type: 'tap' }] } })
  })

  it('answers 404 with a JSON error for other paths when there is no next()', async () => {
    const base = await listen(createServer(ringhook(receiver)))
    const response = await fetch(`${base}/elsewhere`, await signedGesture())
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } })
  })

  it('passes other paths to next() in a Connect-style stack', async () => {
    const middleware = ringhook(receiver)
    const base = await listen(
      createServer((request, response) => middleware(request, response, () => response.end('the app'))),
    )
    expect(await (await fetch(`${base}/health`)).text()).toBe('the app')
    expect((await fetch(`${base}/webhooks`, await signedGesture())).status).toBe(200)
  })

  it('uses raw bytes an earlier Connect parser kept, and names the fix when it kept none', async () => {
    const middleware = ringhook(receiver)
    type Parsed = IncomingMessage & { rawBody?: Buffer; body?: unknown }
    // A body parser that runs first, as in a Connect stack: it reads the stream, keeping the bytes or not.
    const parser = (keep: boolean) => (request: Parsed, response: ServerResponse) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const raw = Buffer.concat(chunks)
        request.body = JSON.parse(raw.toString())
        if (keep) request.rawBody = raw
        middleware(request, response)
      })
    }
    const kept = await listen(createServer(parser(true)))
    expect((await fetch(`${kept}/webhooks`, await signedGesture())).status).toBe(200)
    const consumed = await listen(createServer(parser(false)))
    const response = await fetch(`${consumed}/webhooks`, await signedGesture())
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
  })

  it.each(REFUSED_FROM_HEAD)(
    'answers %s before any byte of the body arrives',
    async (_case, method, type, length, statusLine) => {
      // A body timeout past the test's own: waiting for the body could not end in time.
      const limited = createReceiver({
        secret: SECRET,
        logger: silentLogger,
        maxBodyBytes: 1000,
        bodyTimeoutMs: 60_000,
      })
      const base = await listen(createServer(ringhook(limited)))
      expect(await statusLineWithoutBody(base, method, type, length)).toBe(statusLine)
    },
    5000,
  )
})
