import { createHash, timingSafeEqual } from 'node:crypto'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { characterCount } from '@ringhook/core/api'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/express'
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express'

/** The Express app, and its receiver (for a graceful shutdown). */
export interface App {
  app: Express
  receiver: Receiver
}

export interface AdminOptions {
  /** Bearer token of the admin API; without one the API is not served at all. */
  token?: string | undefined
}

const MAX_MESSAGE = VIBE_LIMITS.maxMessageLength

/**
 * The example app: a webhook receiver, and an admin API that sets what gestures are answered
 * with, served only with a bearer token.
 */
export function createApp(
  secret: ReceiverOptions['secret'],
  options: Omit<ReceiverOptions, 'secret'> = {},
  admin: AdminOptions = {},
): App {
  let replyMessage: string | undefined

  const receiver = createReceiver({ ...options, secret })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(replyMessage ?? fit(`Got your ${event.gesture_type}`)))
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  const app = express()

  // The webhook route comes before any body parser: the signature is over the body exactly as sent.
  app.post('/webhooks', ringhook(receiver))
  app.get('/health', (_req, res) => void res.json(health(options.capture)))

  if (admin.token) {
    // Who may change what every user's ring says: checked before a byte of the body is read,
    // which is then parsed with a small limit.
    const api = express.Router()
    api.use(requireBearer(admin.token), express.json({ limit: '1kb' }))
    api.get('/reply-message', (_req, res) => void res.json({ message: replyMessage ?? null }))
    api.post('/reply-message', (req, res) => {
      const message: unknown = req.body?.message
      if (typeof message !== 'string' || message.length === 0 || characterCount(message) > MAX_MESSAGE) {
        return void res.status(400).json({ error: `message must be a string of 1 to ${MAX_MESSAGE} characters` })
      }
      replyMessage = message
      res.json({ message })
    })
    api.use(jsonErrors)
    app.use('/api', api)
  }
  return { app, receiver }
}

/** Lets through requests carrying `Authorization: Bearer <token>`; compares in constant time. */
function requireBearer(token: string): RequestHandler {
  const expected = sha256(token)
  return (req, res, next) => {
    const given = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1]
    // Digests have one length, so the comparison time says nothing about the token.
    if (given !== undefined && timingSafeEqual(sha256(given), expected)) return next()
    res.status(401).set('www-authenticate', 'Bearer').json({ error: 'unauthorized' })
  }
}

/** The parser's errors (413 too large, 400 not JSON) as JSON, without Express's stack trace page. */
const jsonErrors: ErrorRequestHandler = (error: { status?: unknown; expose?: unknown }, _req, res, _next) => {
  const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500
  // The rest of a body too large is not read: close the connection after the answer.
  if (status === 413) res.set('connection', 'close')
  res
    .status(status)
    .json({ error: status === 413 ? 'body too large' : status === 500 ? 'internal error' : 'bad request' })
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
