import { type Receiver, RinghookConfigError } from '@ringhook/core'
import { bodyConsumed, closesConnection, type WebhookRequest } from '@ringhook/core/adapter'
import { beginArrival, readsBody } from '@ringhook/core/internal'
import { ReadBody, StreamBody, toWebhookRequest as toNodeWebhookRequest } from '@ringhook/node'
import type { FastifyContentTypeParser, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify'

/** Where the plugin's route is. */
export interface RinghookOptions {
  /** The route webhooks are posted to, under the prefix the plugin is registered with. Default `/webhooks`. */
  path?: string
}

const BODY_CONSUMED_FIX = bodyConsumed(
  'An onRequest or preParsing hook, or an Express-style body parser added with app.use(), read it. Leave the ' +
    "webhook route to the ringhook plugin, e.g. skip it in that hook with `if (request.url.startsWith('/webhooks')) return`.",
)

/**
 * A Fastify 5 plugin that serves the receiver on one route. Its content-type parser, in the
 * plugin's own encapsulated context, reads the body with the receiver's `maxBodyBytes` and
 * `bodyTimeoutMs` instead of Fastify's parsing; the rest of the app keeps Fastify's JSON parser.
 *
 * @example
 * import Fastify from 'fastify'
 *
 * const app = Fastify()
 * app.register(ringhook(receiver)) // POST /webhooks
 */
export function ringhook(receiver: Receiver, options: RinghookOptions = {}): FastifyPluginCallback {
  const path = options.path ?? '/webhooks'
  return function ringhookFastify(fastify, _options, done) {
    const bodyLimit = fastify.initialConfig.bodyLimit ?? Number.POSITIVE_INFINITY
    const { maxBodyBytes, bodyTimeoutMs } = receiver.options
    // The receiver, not Fastify, reads this route's body: never let it accept more than Fastify would.
    if (maxBodyBytes > bodyLimit) return done(limitError(maxBodyBytes, bodyLimit))
    fastify.removeAllContentTypeParsers()
    // The service's deliveries (POST, JSON) are read here, in Fastify's own callback, so that the
    // receiver answers without waiting on a promise for the body (about 4% of a delivery's CPU:
    // bench/HISTORY.md). What the receiver refuses from the headers alone (another method, another
    // content type, a length over the limit, a body already consumed) is left to it, unread.
    // Read before the route's handler calls the receiver, so counted as in flight while it arrives:
    // close() waits for a body still arriving, as with the other adapters. Once read (or broken off),
    // the handler runs and the receiver answers it, 503 if it is closing by then. Counting until the
    // response instead took two Fastify hooks on every request of the plugin (bench/HISTORY.md).
    // A receiver already closing leaves the body unread, and its handle() answers 503 at once.
    const readAhead: FastifyContentTypeParser = (request, payload, parsed) => {
      if (request.raw.readableEnded || !readsBody(receiver.options, request.method, request.headers))
        return parsed(null)
      const done = beginArrival(receiver)
      if (!done) return parsed(null)
      new StreamBody(payload).read(maxBodyBytes, bodyTimeoutMs, (body) => {
        done()
        parsed(null, new ReadBody(body))
      })
    }
    const leaveBody: FastifyContentTypeParser = (_request, _payload, parsed) => parsed(null)
    // Named, the service's content type is also a lookup Fastify caches; the catch-all it looks for
    // afresh on every request (~2 µs each).
    fastify.addContentTypeParser('application/json', readAhead)
    fastify.addContentTypeParser('*', leaveBody)
    fastify.all(path, (request, reply) => respond(receiver, request, reply))
    done()
  }
}

/**
 * Sends the receiver's answer from the promise's own reaction. The handler returns nothing, so
 * Fastify waits for `reply.send` instead of chaining on a returned promise: two promise jobs fewer
 * per delivery, and the reply object is not resolved as a thenable.
 */
function respond(receiver: Receiver, request: FastifyRequest, reply: FastifyReply): void {
  const { raw } = request
  void receiver.handle(toWebhookRequest(request)).then((result) => {
    try {
      if (closesConnection(raw)) reply.header('connection', 'close')
      reply.code(result.status).headers(result.headers).send(result.body)
    } catch (error) {
      // Fastify answers it with its error handler, as it would a handler's throw.
      reply.send(error)
    }
  })
}

/**
 * The request as the core reads it: with the body the parser read, or else the Node request (no
 * body to parse, or one left unread), with the fix for a consumed body told in Fastify's terms.
 */
function toWebhookRequest({ raw, body }: FastifyRequest): WebhookRequest {
  if (body instanceof ReadBody) return { method: raw.method ?? 'GET', headers: raw.headers, rawBody: body }
  const request = toNodeWebhookRequest(raw)
  return request.bodyAlreadyParsed ? { ...request, bodyAlreadyParsed: BODY_CONSUMED_FIX } : request
}

const limitError = (maxBodyBytes: number, bodyLimit: number) =>
  new RinghookConfigError(
    `The receiver's maxBodyBytes (${maxBodyBytes}) is larger than Fastify's bodyLimit (${bodyLimit}). ` +
      'The ringhook plugin reads webhook bodies through the receiver, so set maxBodyBytes to at most bodyLimit ' +
      '(createReceiver({ maxBodyBytes })) or raise bodyLimit (Fastify({ bodyLimit })).',
  )
