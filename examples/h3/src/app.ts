import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/h3'
import { H3, HTTPError, readBody } from 'h3'

/** The h3 app, and its receiver (for a graceful shutdown). */
export interface App {
  app: H3
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

  // The webhook route reads its own body: no middleware here calls readBody() for every request.
  const app = new H3()
    .post('/webhooks', ringhook(receiver))
    .get('/health', () => 'ok')
    .get('/api/reply-message', () => ({ message: replyMessage ?? null }))
    .post('/api/reply-message', async (event) => {
      const body = await readBody<{ message?: unknown }>(event).catch(() => undefined)
      const message = body?.message
      if (typeof message !== 'string' || message.length === 0 || message.length > 80) {
        throw new HTTPError({ status: 400, message: 'message must be a string of 1 to 80 characters' })
      }
      replyMessage = message
      return { message }
    })
  return { app, receiver }
}
