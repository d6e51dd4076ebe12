import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'
import { afterEach, describe, expect, it } from 'vitest'
import { gestureReceiver, recordingLogger, SECRET, signedGesture } from '../../../test/support/adapter-kit.js'
import { ringhook } from '../src/index.js'
import { bodyParser, koaBody } from './parsers.js'

const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

let server: Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
  server = undefined
})

async function serve(app: Koa): Promise<string> {
  server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The app's own JSON route, answered with what the body parser made of the body. */
function echoRoute(app: Koa): Koa {
  return app.use((ctx) => {
    if (ctx.path === '/api/echo') ctx.body = { got: (ctx.request as { body?: unknown }).body }
  })
}

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('@ringhook/koa', () => {
  it("answers a gesture on /webhooks and leaves other paths to the app's body parser", async () => {
    const { receiver, handled } = gestureReceiver()
    const app = new Koa().use(ringhook(receiver)).use(bodyParser())
    const base = await serve(echoRoute(app))
    const response = await fetch(`${base}/webhooks`, await signedGesture())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual(VIBE)
    expect(await (await postJson(`${base}/api/echo`, { note: 'hi' })).json()).toEqual({ got: { note: 'hi' } })
    expect(handled).toEqual(['double_tap'])
  })

  it('serves the path given, and a JSON 405 to other methods on it', async () => {
    const { receiver } = gestureReceiver()
    const base = await serve(new Koa().use(ringhook(receiver, { path: '/ring/hooks' })))
    expect((await fetch(`${base}/ring/hooks`, await signedGesture())).status).toBe(200)
    const get = await fetch(`${base}/ring/hooks`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    expect(await get.json()).toMatchObject({ error: { code: 'method_not_allowed' } })
    expect((await fetch(`${base}/webhooks`, await signedGesture())).status).toBe(404)
  })

  it('answers body_already_parsed and logs the fix when koaBody() consumed the body first', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const base = await serve(new Koa().use(koaBody()).use(ringhook(receiver)))
    const delivery = await signedGesture()
    const response = await fetch(`${base}/webhooks`, delivery)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
    expect(lines[0]?.message).toContain('app.use(ringhook(receiver)) above app.use(koaBody())')
    expect(lines[0]?.message).toContain('koaBody({ includeUnparsed: true })')
    const logged = JSON.stringify(lines)
    expect(logged).not.toContain(SECRET)
    expect(logged).not.toContain(delivery.headers['x-service-signature'])
  })

  it.each([
    { parser: '@koa/bodyparser', middleware: () => bodyParser() },
    { parser: 'koaBody({ includeUnparsed: true })', middleware: () => koaBody({ includeUnparsed: true }) },
  ])('verifies the raw text $parser kept when it ran first', async ({ middleware }) => {
    const { receiver, handled } = gestureReceiver()
    const base = await serve(new Koa().use(middleware()).use(ringhook(receiver)))
    expect(await (await fetch(`${base}/webhooks`, await signedGesture())).json()).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it('still rejects a tampered body with 401 when a parser kept the raw text', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const base = await serve(new Koa().use(bodyParser()).use(ringhook(receiver)))
    const delivery = await signedGesture()
    const response = await fetch(`${base}/webhooks`, { ...delivery, body: delivery.body.replace('double', 'triple') })
    expect(response.status).toBe(401)
    expect(handled).toEqual([])
    expect(lines[0]?.fields).toMatchObject({ code: 'unauthorized', reason: 'signature_mismatch' })
  })
})
