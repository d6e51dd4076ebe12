import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/hono'
import { Hono } from 'hono'

/** The Hono app, and its receiver (for a graceful shutdown). */
export interface App {
  app: Hono
  receiver: Receiver
}

/** The example app: a webhook receiver and a small JSON API that sets what gestures are answered with. */
export function createApp(secret: ReceiverOptions['secret'], options: Omit<ReceiverOptions, 'secret'> = {}): App {
  let replyMessage: string | undefined

  const receiver = createReceiver({ ...options, secret })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(replyMessage ?? `Got your ${event.gesture_type}`))
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  const app = new Hono()
  app.post('/webhooks', ringhook(receiver))
  app.get('/health', (c) => c.text('ok'))
  app.get('/api/reply-message', (c) => c.json({ message: replyMessage ?? null }))
  app.post('/api/reply-message', async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined)
    const message = (body as { message?: unknown } | undefined)?.message
    if (typeof message !== 'string' || message.length === 0 || message.length > 80) {
      return c.json({ error: 'message must be a string of 1 to 80 characters' }, 400)
    }
    replyMessage = message
    return c.json({ message })
  })
  return { app, receiver }
}
