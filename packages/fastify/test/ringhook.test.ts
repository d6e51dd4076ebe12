import { Writable } from 'node:stream'
import { RinghookConfigError } from '@ringhook/core'
import { ReadBody } from '@ringhook/node'
import { signEvent, signed } from '@ringhook/testing'
import Fastify, { type FastifyInstance } from 'fastify'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import {
  gestureReceiver,
  gestureText,
  REFUSED_FROM_HEAD,
  recordingLogger,
  SECRET,
  statusLineWithoutBody,
} from '../../../test/support/adapter-kit.js'
import { ringhook } from '../src/index.js'

// Supertest against the listening server, rather than Fastify's inject(): the plugin reads the body
// from Node's request stream in Fastify's content-type parser and counts deliveries in flight until
// the socket is answered, which a real server and client exercise and inject() only simulates (one
// test below shows inject(), as an app's own tests may use it). Each delivery is signed over
// gestureText(): spaces, keys in reverse order and an escaped "é", so only the exact bytes verify.
const VIBE = { success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Got double_tap' } }

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** Listens on an ephemeral port of 127.0.0.1; supertest talks to that server. */
async function serve(instance: FastifyInstance) {
  app = instance
  await instance.listen({ port: 0, host: '127.0.0.1' })
  return request(instance.server)
}

/** A signed gesture, as supertest's `.use()` takes it. */
const gesture = (extra: Record<string, unknown> = {}) => signed(gestureText(extra), SECRET)

describe('@ringhook/fastify', () => {
  it('answers a gesture with its vibe on POST /webhooks', async () => {
    const { receiver, handled } = gestureReceiver()
    const http = await serve(Fastify().register(ringhook(receiver)))
    const response = await http.post('/webhooks').use(await gesture())
    expect(response.status).toBe(200)
    expect(response.body).toEqual(VIBE)
    expect(handled).toEqual(['double_tap'])
  })

  it("leaves Fastify's JSON parser to the rest of the app, even one the app replaced", async () => {
    const { receiver, handled } = gestureReceiver()
    const instance = Fastify()
    // The app's own JSON parser, registered before the plugin: the webhook route must not use it.
    instance.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
      done(null, { parsedByTheApp: JSON.parse(text as string) })
    })
    instance.register(ringhook(receiver))
    instance.post('/api/echo', async (request) => ({ got: request.body }))
    const http = await serve(instance)
    expect((await http.post('/webhooks').use(await gesture())).body).toEqual(VIBE)
    expect((await http.post('/api/echo').send({ note: 'hi' })).body).toEqual({
      got: { parsedByTheApp: { note: 'hi' } },
    })
    expect(handled).toEqual(['double_tap'])
  })

  it('serves the route under the prefix and path given', async () => {
    const { receiver } = gestureReceiver()
    const http = await serve(Fastify().register(ringhook(receiver, { path: '/ring' }), { prefix: '/hooks' }))
    expect((await http.post('/hooks/ring').use(await gesture())).status).toBe(200)
    expect((await http.post('/webhooks').use(await gesture())).status).toBe(404)
  })

  it('works with fastify.inject, for the app developer’s own tests', async () => {
    const { receiver, handled } = gestureReceiver()
    const instance = Fastify().register(ringhook(receiver))
    app = instance
    const delivery = await signEvent({ secret: SECRET, payload: gestureText() })
    const ok = await instance.inject({
      method: 'POST',
      url: '/webhooks',
      headers: delivery.headers,
      payload: delivery.body,
    })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual(VIBE)
    const forged = await instance.inject({
      method: 'POST',
      url: '/webhooks',
      headers: delivery.headers,
      payload: delivery.body.replace('double_tap', 'triple_tap'),
    })
    expect(forged.statusCode).toBe(401)
    expect(forged.json()).toMatchObject({ error: { code: 'unauthorized' } })
    expect(handled).toEqual(['double_tap'])
  })

  it('answers body_already_parsed and logs the fix when a hook read the body first', async () => {
    const { logger, lines } = recordingLogger()
    const { receiver, handled } = gestureReceiver({ logger })
    const instance = Fastify()
    // An app-wide hook that buffers every request body, as request-logging code sometimes does.
    instance.addHook('onRequest', async (request) => {
      for await (const _chunk of request.raw) {
        // read and dropped
      }
    })
    instance.register(ringhook(receiver))
    instance.get('/health', async () => 'ok')
    const http = await serve(instance)
    const delivery = await signEvent({ secret: SECRET, payload: gestureText() })
    const response = await http.post('/webhooks').set(delivery.headers).send(delivery.body)
    expect(response.status).toBe(500)
    expect(response.body).toMatchObject({ error: { code: 'body_already_parsed' } })
    expect(handled).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', fields: { code: 'body_already_parsed' } })
    expect(lines[0]?.message).toContain('onRequest or preParsing hook')
    expect(lines[0]?.message).toContain("if (request.url.startsWith('/webhooks')) return")
    expect(JSON.stringify(lines)).not.toContain(delivery.signature)
  })

  it("refuses to register when the receiver's maxBodyBytes is above Fastify's bodyLimit", async () => {
    const { receiver } = gestureReceiver()
    app = Fastify({ bodyLimit: 1000 }).register(ringhook(receiver))
    const failure = await app.ready().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(RinghookConfigError)
    expect((failure as Error).message).toContain('maxBodyBytes (65536) is larger than Fastify')
    expect((failure as Error).message).toContain('bodyLimit (1000)')
  })

  it("answers the core's 413 for a body over maxBodyBytes, within Fastify's bodyLimit", async () => {
    const { receiver, handled } = gestureReceiver({ maxBodyBytes: 1000 })
    const http = await serve(Fastify({ bodyLimit: 1000 }).register(ringhook(receiver)))
    const response = await http.post('/webhooks').use(await gesture({ pad: 'x'.repeat(1000) }))
    expect(response.status).toBe(413)
    expect(response.body).toMatchObject({ error: { code: 'payload_too_large' } })
    expect(handled).toEqual([])
  })

  // Headers only, no body: a parser that waited for one would answer 408 after bodyTimeoutMs (10 s),
  // past the test's timeout. What the receiver refuses from the headers is refused unread.
  it.each(REFUSED_FROM_HEAD)(
    'answers %s before any byte of the body arrives',
    async (_case, method, type, length, statusLine) => {
      const { receiver, handled } = gestureReceiver({ maxBodyBytes: 1000, requireJsonContentType: true })
      const instance = Fastify({ bodyLimit: 1000 }).register(ringhook(receiver))
      await serve(instance)
      expect(await statusLineWithoutBody(instance.listeningOrigin, method, type, length)).toBe(statusLine)
      expect(handled).toEqual([])
    },
    5000,
  )

  it('hands the receiver the body its parser read, so no promise waits for the body', async () => {
    const { receiver } = gestureReceiver()
    const bodies: unknown[] = []
    const watched = {
      ...receiver,
      handle: (request: Parameters<typeof receiver.handle>[0]) => {
        bodies.push(request.rawBody)
        return receiver.handle(request)
      },
    }
    const http = await serve(Fastify().register(ringhook(watched)))
    const response = await http.post('/webhooks').use(await gesture())
    expect(response.status).toBe(200)
    expect(response.body).toEqual(VIBE)
    expect(bodies).toHaveLength(1)
    expect(bodies[0]).toBeInstanceOf(ReadBody)
    expect((bodies[0] as ReadBody).result.ok).toBe(true)
  })

  it("hands a failure to send the answer to Fastify's error handler, not to an unhandled rejection", async () => {
    // The plugin sends from the receiver's promise rather than returning it to Fastify, so it must
    // catch what sending throws itself. A status Fastify refuses makes `reply.code` throw.
    const { receiver } = gestureReceiver()
    const unsendable = { ...receiver, handle: async () => ({ status: 99, headers: {}, body: '' }) }
    const rejections: unknown[] = []
    const onRejection = (reason: unknown) => rejections.push(reason)
    process.on('unhandledRejection', onRejection)
    try {
      const http = await serve(Fastify().register(ringhook(unsendable)))
      const response = await http
        .post('/webhooks')
        .timeout(5000)
        .use(await gesture())
      expect(response.status).toBe(500)
      expect(response.body).toMatchObject({ code: 'FST_ERR_BAD_STATUS_CODE' })
      await new Promise((resolve) => setImmediate(resolve))
      expect(rejections).toEqual([])
    } finally {
      process.off('unhandledRejection', onRejection)
    }
  })

  it("logs through Fastify's logger when the receiver is given app.log", async () => {
    const logged: Array<Record<string, unknown>> = []
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logged.push(JSON.parse(chunk.toString()))
        callback()
      },
    })
    const instance = Fastify({ logger: { level: 'warn', stream } })
    const { receiver } = gestureReceiver({ logger: instance.log })
    const http = await serve(instance.register(ringhook(receiver)))
    const { body, headers } = await signEvent({ secret: SECRET, payload: gestureText() })
    // One space more than was signed.
    const response = await http.post('/webhooks').set(headers).send(`${body} `)
    expect(response.status).toBe(401)
    expect(logged).toContainEqual(expect.objectContaining({ code: 'unauthorized', reason: 'signature_mismatch' }))
    expect(JSON.stringify(logged)).not.toContain(SECRET)
  })

  it("names the service's content type among its parsers, so Fastify caches the lookup instead of redoing it per request", async () => {
    const { receiver } = gestureReceiver()
    const instance = Fastify()
    app = instance
    // The plugin run on this instance itself (register would give it a scope of its own, out of sight).
    await new Promise<void>((resolve, reject) =>
      ringhook(receiver)(instance, {}, (error) => (error ? reject(error) : resolve())),
    )
    expect(instance.hasContentTypeParser('application/json')).toBe(true)
    expect(instance.hasContentTypeParser('text/plain')).toBe(false)
  })

  it('counts a delivery whose body it read as in flight until something answers it, the app included', async () => {
    const { receiver, handled } = gestureReceiver()
    const instance = Fastify()
    // An app-wide guard that answers every route itself once the body is parsed: the plugin's
    // handler never runs, yet close() must not wait for it.
    instance.addHook('preHandler', async (_request, reply) => reply.code(403).send({ denied: true }))
    instance.register(ringhook(receiver))
    const http = await serve(instance)
    const response = await http.post('/webhooks').use(await gesture())
    expect(response.status).toBe(403)
    expect(handled).toEqual([])
    expect(await receiver.close({ timeoutMs: 1000 })).toEqual({ drained: true, pending: 0 })
  })

  it('leaves a body unread once the receiver is closing, and answers 503 at once', async () => {
    const { receiver, handled } = gestureReceiver()
    await receiver.close()
    const http = await serve(Fastify().register(ringhook(receiver)))
    const response = await http.post('/webhooks').use(await gesture())
    expect(response.status).toBe(503)
    expect(response.body).toMatchObject({ error: { code: 'shutting_down' } })
    expect(handled).toEqual([])
  })
})
