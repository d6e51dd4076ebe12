import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { finished } from 'node:stream/promises'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { characterCount } from '@ringhook/core/api'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/fastify'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify'

/** The Fastify app, and its receiver (for a graceful shutdown). */
export interface App {
  app: FastifyInstance
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
  options: Omit<ReceiverOptions, 'secret'> & { log?: FastifyBaseLogger } = {},
  admin: AdminOptions = {},
): App {
  const reply: Reply = { message: undefined }
  const { log, ...receiverOptions } = options

  // Node's 5 s keep-alive rather than Fastify's 72 s: on SIGTERM, idle connections are left to end
  // on their own (a request may be on its way on one), and the process waits for them to.
  // Fastify logs through the app's pino instance when given one (`log`), else its own at warn.
  const app = Fastify({
    ...(log ? { loggerInstance: log } : { logger: { level: 'warn' } }),
    keepAliveTimeout: 5_000,
  })
  // ringhook's warnings and errors go to Fastify's logger (unless the caller passes another).
  const receiver = createReceiver({ logger: app.log, ...receiverOptions, secret })
  receiver.on('gesture', (event) =>
    vibe('tap', 'pulse').message(reply.message ?? fit(`Got your ${event.gesture_type}`)),
  )
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  // POST /webhooks, its body left unread for the receiver; the routes below keep Fastify's JSON parser.
  app.register(ringhook(receiver))
  app.get('/health', async () => health(receiverOptions.capture))
  // A plugin of its own, so its hook and error handler apply to its routes only.
  if (admin.token) app.register(adminApi(admin.token, reply), { prefix: '/api' })
  return { app, receiver }
}

/**
 * Who may change what every user's ring says: the token is checked in `onRequest`, before a byte
 * of the body is read, which is then parsed with a 1 KiB limit, declared or streamed.
 */
function adminApi(token: string, reply: Reply): FastifyPluginAsync {
  const expected = sha256(token)
  return async (api) => {
    api.addHook('onRequest', async (request, res) => {
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
      // Digests have one length, so the comparison time says nothing about the token.
      if (given !== undefined && timingSafeEqual(sha256(given), expected)) return
      return res.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized' })
    })
    api.setErrorHandler(async (error: { statusCode?: number }, request, res) => {
      const status =
        error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500
      if (status === 413) {
        // Fastify stopped reading at the limit. Read off the rest before answering and closing: a
        // socket closed with bytes unread is reset, and the reset can destroy the answer on its way.
        await drain(request.raw)
        res.header('connection', 'close')
      }
      return res
        .code(status)
        .send({ error: status === 413 ? 'body too large' : status === 500 ? 'internal error' : 'bad request' })
    })
    api.get('/reply-message', async () => ({ message: reply.message ?? null }))
    api.post('/reply-message', { bodyLimit: 1024 }, async (request, res) => {
      const message = (request.body as { message?: unknown } | undefined)?.message
      if (typeof message !== 'string' || message.length === 0 || characterCount(message) > MAX_MESSAGE) {
        return res.code(400).send({ error: `message must be a string of 1 to ${MAX_MESSAGE} characters` })
      }
      reply.message = message
      return { message }
    })
  }
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
