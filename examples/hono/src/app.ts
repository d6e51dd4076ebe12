import { characterCount, createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/hono'
import { Hono } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { bodyLimit } from 'hono/body-limit'

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
  app.get('/health', (c) => c.text('ok'))

  if (admin.token) {
    // Who may change what every user's ring says: the token is checked (in constant time) before
    // a byte of the body is read, and the body is cut off past 1 KiB, declared or streamed.
    app.use(
      '/api/*',
      bearerAuth({ token: admin.token }),
      // Connection: close, or the client may reuse a connection the server drops for the unread rest.
      bodyLimit({ maxSize: 1024, onError: (c) => c.json({ error: 'body too large' }, 413, { connection: 'close' }) }),
    )
    app.get('/api/reply-message', (c) => c.json({ message: replyMessage ?? null }))
    app.post('/api/reply-message', async (c) => {
      const body: unknown = await c.req.json().catch(() => undefined)
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

/**
 * The text cut to the trigger rules' 80 characters, with an ellipsis when cut. A gesture type is
 * whatever the service sends: a reply the rules refuse would be a 500, retried forever.
 */
function fit(text: string): string {
  const characters = Array.from(text) // code points, as the rules count them
  return characters.length <= MAX_MESSAGE ? text : `${characters.slice(0, MAX_MESSAGE - 1).join('')}…`
}
