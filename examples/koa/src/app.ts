import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { finished } from 'node:stream/promises'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { characterCount } from '@ringhook/core/api'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/koa'
import Koa, { type Middleware } from 'koa'
import bodyParser from 'koa-bodyparser'

/** The Koa app, and its receiver (for a graceful shutdown). */
export interface App {
  app: Koa
  receiver: Receiver
}

export interface AdminOptions {
  /** Bearer token of the admin API; without one the API is not served at all. */
  token?: string | undefined
}

const MAX_MESSAGE = VIBE_LIMITS.maxMessageLength

/** What gestures are answered with; shared by the handler and the admin API. */
interface Reply {
  message: string | undefined
}

/**
 * The example app: a webhook receiver, and an admin API that sets what gestures are answered
 * with, served only with a bearer token.
 */
export function createApp(
  secret: ReceiverOptions['secret'],
  options: Omit<ReceiverOptions, 'secret'> = {},
  admin: AdminOptions = {},
): App {
  const reply: Reply = { message: undefined }

  const receiver = createReceiver({ ...options, secret })
  receiver.on('gesture', (event) =>
    vibe('tap', 'pulse').message(reply.message ?? fit(`Got your ${event.gesture_type}`)),
  )
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  const app = new Koa()
  // POST /webhooks is answered here, above any body parser: the signature is over the body exactly as sent.
  app.use(ringhook(receiver))
  app.use(async (ctx, next) => {
    if (ctx.path === '/health' && ctx.method === 'GET') ctx.body = health(options.capture)
    else await next()
  })
  if (admin.token) app.use(adminApi(admin.token, reply))
  return { app, receiver }
}

/**
 * `/api/*`: who may change what every user's ring says. The token is checked before a byte of the
 * body is read, which is then parsed with a 1 KiB limit, declared or streamed.
 */
function adminApi(token: string, reply: Reply): Middleware {
  const expected = sha256(token)
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: '1kb' })
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/api/')) return next()
    const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1]
    // Digests have one length, so the comparison time says nothing about the token.
    if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
      ctx.status = 401
      ctx.set('www-authenticate', 'Bearer')
      ctx.body = { error: 'unauthorized' }
      return
    }
    try {
      await parse(ctx, async () => {
        if (ctx.path !== '/api/reply-message') return
        if (ctx.method === 'GET') ctx.body = { message: reply.message ?? null }
        else if (ctx.method === 'POST') setMessage(ctx, reply)
      })
    } catch (error) {
      // The parser's errors (413 too large, 400 not JSON) as JSON; Koa's own handler would answer text.
      const status = (error as { status?: unknown }).status
      if (typeof status !== 'number' || status < 400 || status >= 500) throw error
      if (status === 413) {
        // The parser stopped reading at the limit. Read off the rest before answering and closing:
        // a socket closed with bytes unread is reset, and the reset can destroy the answer on its way.
        await drain(ctx.req)
        ctx.set('connection', 'close')
      }
      ctx.status = status
      ctx.body = { error: status === 413 ? 'body too large' : 'bad request' }
    }
  }
}

function setMessage(ctx: Koa.Context, reply: Reply): void {
  const message = (ctx.request.body as { message?: unknown } | undefined)?.message
  if (typeof message !== 'string' || message.length === 0 || characterCount(message) > MAX_MESSAGE) {
    ctx.status = 400
    ctx.body = { error: `message must be a string of 1 to ${MAX_MESSAGE} characters` }
    return
  }
  reply.message = message
  ctx.body = { message }
}

/** Reads what is left of the request and discards it. */
async function drain(request: IncomingMessage): Promise<void> {
  request.resume()
  await finished(request).catch(() => {}) // the client may go away meanwhile: nothing to answer then
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

/**
 * The text cut to the trigger rules' 80 characters, with an ellipsis when cut. A gesture type is
 * whatever the service sends: a reply the rules refuse would be a 500, retried forever.
 */
function fit(text: string): string {
  const characters = Array.from(text) // code points, as the rules count them
  return characters.length <= MAX_MESSAGE ? text : `${characters.slice(0, MAX_MESSAGE - 1).join('')}…`
}

/**
 * What `GET /health` answers: up, and with capture on, what it recorded and lost (`stats()`), so a
 * capture losing records shows where the app is watched, not only in a log line.
 */
function health(capture: Capture | undefined) {
  return { status: 'ok', ...(capture ? { capture: capture.stats() } : {}) }
}
