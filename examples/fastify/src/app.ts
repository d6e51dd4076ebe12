import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/fastify'
import Fastify, { type FastifyInstance } from 'fastify'

/** The Fastify app, and its receiver (for a graceful shutdown). */
export interface App {
  app: FastifyInstance
  receiver: Receiver
}

/** The example app: a webhook receiver and a small JSON API that sets what gestures are answered with. */
export function createApp(secret: ReceiverOptions['secret'], options: Omit<ReceiverOptions, 'secret'> = {}): App {
  let replyMessage: string | undefined

  const app = Fastify({ logger: { level: 'warn' } })
  // ringhook's warnings and errors go to Fastify's logger (unless the caller passes another).
  const receiver = createReceiver({ logger: app.log, ...options, secret })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(replyMessage ?? `Got your ${event.gesture_type}`))
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  // POST /webhooks, its body left unread for the receiver; the routes below keep Fastify's JSON parser.
  app.register(ringhook(receiver))
  app.get('/health', async () => 'ok')
  app.get('/api/reply-message', async () => ({ message: replyMessage ?? null }))
  app.post('/api/reply-message', async (request, reply) => {
    const message = (request.body as { message?: unknown } | undefined)?.message
    if (typeof message !== 'string' || message.length === 0 || message.length > 80) {
      return reply.code(400).send({ error: 'message must be a string of 1 to 80 characters' })
    }
    replyMessage = message
    return { message }
  })
  return { app, receiver }
}
