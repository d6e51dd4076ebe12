import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { characterCount } from '@ringhook/core/api'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/hono'
import { Hono } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'

/** The Hono app, and its receiver (for a graceful shutdown). */
export interface App {
  app: Hono
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

  const app = new Hono()
  app.post('/webhooks', ringhook(receiver))
  app.get('/health', (c) => c.json(health(options.capture)))

  if (admin.token) {
    // Who may change what every user's ring says: the token is checked (in constant time) before
    // a byte of the body is read, and the body is cut off past 1 KiB, declared or streamed.
    app.use('/api/*', bearerAuth({ token: admin.token }))
    app.get('/api/reply-message', (c) => c.json({ message: replyMessage ?? null }))
    app.post('/api/reply-message', async (c) => {
      const text = await readCapped(c.req.raw, MAX_BODY)
      if (text === undefined) return c.json({ error: 'body too large' }, 413)
      const body: unknown = parseJson(text)
      const message = (body as { message?: unknown } | undefined)?.message
      if (typeof message !== 'string' || message.length === 0 || characterCount(message) > MAX_MESSAGE) {
        return c.json({ error: `message must be a string of 1 to ${MAX_MESSAGE} characters` }, 400)
      }
      replyMessage = message
      return c.json({ message })
    })
  }
  return { app, receiver }
}

/** The admin API's body limit: a message is 80 characters. */
const MAX_BODY = 1024

/**
 * The body as text when it is at most `limit` bytes, declared or streamed; undefined when larger. A
 * larger body is read to its end and dropped (holding `limit` bytes at most) before the 413: a socket
 * closed with bytes unread is reset, and the reset can destroy the 413 before the client reads it.
 */
async function readCapped(request: Request, limit: number): Promise<string | undefined> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body?.getReader()
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    size += read.value.length
    if (size <= limit) chunks.push(read.value)
  }
  return size > limit ? undefined : Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

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
