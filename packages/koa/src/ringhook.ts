import type { Receiver } from '@ringhook/core'
import { bodyConsumed, closesConnection, type WebhookRequest } from '@ringhook/core/adapter'
import { StreamBody } from '@ringhook/node'
import type { Context, Middleware, Next } from 'koa'

/** Which path the middleware answers. */
export interface RinghookOptions {
  /** The path webhooks are posted to; requests to other paths go on to `next`. Default `/webhooks`. */
  path?: string
}

const BODY_PARSED_FIX = bodyConsumed(
  'Mount ringhook before the body parser (app.use(ringhook(receiver)) above app.use(koaBody())), or have the ' +
    'parser keep the raw text in ctx.request.rawBody: koaBody({ includeUnparsed: true }), or @koa/bodyparser, which keeps it.',
)

/**
 * Koa 3 middleware that answers webhooks on one path and passes every other request on. It
 * reads the body from the request stream with the receiver's limits; raw text a body parser
 * kept in `ctx.request.rawBody` is used instead, and a body consumed without one is answered
 * `body_already_parsed` with the fix in the log, never a misleading 401.
 *
 * @example
 * import Koa from 'koa'
 *
 * const app = new Koa()
 * app.use(ringhook(receiver)) // POST /webhooks, above app.use(bodyParser())
 */
export function ringhook(receiver: Receiver, options: RinghookOptions = {}): Middleware {
  const path = options.path ?? '/webhooks'
  return async function ringhookKoa(ctx: Context, next: Next) {
    if (ctx.path !== path) return next()
    const result = await receiver.handle(toWebhookRequest(ctx))
    // Headers first: a body set on a response without a content type would be labelled text/plain.
    ctx.set(result.headers)
    if (closesConnection(ctx.req)) ctx.set('connection', 'close')
    ctx.status = result.status
    ctx.body = result.body
  }
}

function toWebhookRequest({ req, request }: Context): WebhookRequest {
  const method = req.method ?? 'GET'
  // The usual case: nothing has read the stream, and the receiver reads it with its limits.
  if (!req.readableEnded) return { method, headers: req.headers, rawBody: new StreamBody(req) }
  // A parser read it: @koa/bodyparser and koaBody({ includeUnparsed: true }) keep the text as received.
  const { rawBody } = request as { rawBody?: unknown }
  if (typeof rawBody === 'string') return { method, headers: req.headers, rawBody }
  return { method, headers: req.headers, rawBody: null, bodyAlreadyParsed: BODY_PARSED_FIX }
}
