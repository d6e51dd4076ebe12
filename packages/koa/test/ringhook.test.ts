import { signEvent, signed } from '@ringhook/testing'
import Koa from 'koa'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { gestureReceiver, gestureText, recordingLogger, SECRET } from '../../../test/support/adapter-kit.js'
import { ringhook } from '../src/index.js'
import { bodyParser, koaBody } from './parsers.js'

// Each delivery is signed over gestureText(): spaces, keys in reverse order and an escaped "é", which
// no re-serialised body gives back, so only the exact bytes sent verify.
const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

/** The app's own JSON route, answered with what the body parser made of the body. */
function echoRoute(app: Koa): Koa {
  return app.use((ctx) => {
    if (ctx.path === '/api/echo') ctx.body = { got: (ctx.request as { body?: unknown }).body }
  })
}

describe('@ringhook/koa', () => {
  it("answers a gesture on /webhooks and leaves other paths to the app's body parser", async () => {
    const { receiver, handled } = gestureReceiver()
    const app = echoRoute(new Koa().use(ringhook(receiver)).use(bodyParser())).callback()
    const response = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.body).toEqual(VIBE)
    expect((await request(app).post('/api/echo').send({ note: 'hi' })).body).toEqual({ got: { note: 'hi' } })
    expect(handled).toEqual(['double_tap'])
  })

  it('serves the path given, and a JSON 405 to other methods on it', async () => {
    const { receiver } = gestureReceiver()
    const app = new Koa().use(ringhook(receiver, { path: '/ring/hooks' })).callback()
    const ok = await request(app)
      .post('/ring/hooks')
      .use(await signed(gestureText(), SECRET))
    expect(ok.status).toBe(200)
    const get = await request(app).get('/ring/hooks')
    expect(get.status).toBe(405)
    expect(get.headers.allow).toBe('POST')
    expect(get.body).toMatchObject({ error: { code: 'method_not_allowed' } })
    const elsewhere = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(elsewhere.status).toBe(404)
  })

  it('answers body_already_parsed and logs the fix when koaBody() consumed the body first', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const app = new Koa().use(koaBody()).use(ringhook(receiver)).callback()
    const delivery = await signEvent({ secret: SECRET, payload: gestureText() })
    const response = await request(app).post('/webhooks').set(delivery.headers).send(delivery.body)
    expect(response.status).toBe(500)
    expect(response.body).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
    expect(lines[0]?.message).toContain('app.use(ringhook(receiver)) above app.use(koaBody())')
    expect(lines[0]?.message).toContain('koaBody({ includeUnparsed: true })')
    const logged = JSON.stringify(lines)
    expect(logged).not.toContain(SECRET)
    expect(logged).not.toContain(delivery.signature)
  })

  it.each([
    { parser: '@koa/bodyparser', middleware: () => bodyParser() },
    { parser: 'koaBody({ includeUnparsed: true })', middleware: () => koaBody({ includeUnparsed: true }) },
  ])('verifies the raw text $parser kept when it ran first', async ({ middleware }) => {
    const { receiver, handled } = gestureReceiver()
    const app = new Koa().use(middleware()).use(ringhook(receiver)).callback()
    const response = await request(app)
      .post('/webhooks')
      .use(await signed(gestureText(), SECRET))
    expect(response.body).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it('still rejects a tampered body with 401 when a parser kept the raw text', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const app = new Koa().use(bodyParser()).use(ringhook(receiver)).callback()
    const { body, headers } = await signEvent({ secret: SECRET, payload: gestureText() })
    const response = await request(app).post('/webhooks').set(headers).send(body.replace('double', 'triple'))
    expect(response.status).toBe(401)
    expect(handled).toEqual([])
    expect(lines[0]?.fields).toMatchObject({ code: 'unauthorized', reason: 'signature_mismatch' })
  })
})
