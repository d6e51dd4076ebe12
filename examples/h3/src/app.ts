import { createHash, timingSafeEqual } from 'node:crypto'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { characterCount } from '@ringhook/core/api'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/h3'
import { H3, type H3Event, HTTPError, type Middleware } from 'h3'

/** The h3 app, and its receiver (for a graceful shutdown). */
export interface App {
  app: H3
  receiver: Receiver
}

export interface AdminOptions {
  /** Bearer token of the admin API; without one the API is not served at all. */
  token?: string | undefined
}

const MAX_MESSAGE = VIBE_LIMITS.maxMessageLength
/** The admin API's body limit: a message is 80 characters. */
const MAX_BODY = 1024

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

  // The webhook route reads its own body: no middleware here reads the body of every request.
  const app = new H3().post('/webhooks', ringhook(receiver)).get('/health', () => health(options.capture))

  if (admin.token) {
    app
      .use('/api/**', adminGuard(admin.token))
      .get('/api/reply-message', () => ({ message: replyMessage ?? null }))
      .post('/api/reply-message', async (event) => {
        const body = (await readJson(event, MAX_BODY)) as { message?: unknown } | undefined
        const message = body?.message
        if (typeof message !== 'string' || message.length === 0 || characterCount(message) > MAX_MESSAGE) {
          throw new HTTPError({ status: 400, message: `message must be a string of 1 to ${MAX_MESSAGE} characters` })
        }
        replyMessage = message
        return { message }
      })
  }
  return { app, receiver }
}

/**
 * Who may change what every user's ring says: the token is checked (in constant time) before a
 * byte of the body is read.
 */
function adminGuard(token: string): Middleware {
  const expected = sha256(token)
  return (event, next) => {
    const given = /^Bearer (.+)$/.exec(event.req.headers.get('authorization') ?? '')?.[1]
    // Digests have one length, so the comparison time says nothing about the token.
    if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
      throw new HTTPError({ status: 401, message: 'unauthorized', headers: { 'www-authenticate': 'Bearer' } })
    }
    return next()
  }
}

/**
 * The JSON body, of at most `limit` bytes, declared or streamed. A larger one is read to its end
 * and discarded (holding `limit` bytes at most) before the 413, rather than cut off the way h3's
 * `bodyLimit` does on Node: a socket closed with bytes unread is reset, and the reset can destroy
 * the answer before the client reads it.
 */
async function readJson(event: H3Event, limit: number): Promise<unknown> {
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  const reader = event.req.body?.getReader()
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    size += read.value.byteLength
    if (size <= limit) text += decoder.decode(read.value, { stream: true })
  }
  if (size > limit) throw new HTTPError({ status: 413, message: 'body too large', headers: { connection: 'close' } })
  text += decoder.decode()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new HTTPError({ status: 400, message: 'body is not JSON' })
  }
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
