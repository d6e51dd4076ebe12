import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/koa'
import Koa from 'koa'
import bodyParser from 'koa-bodyparser'

/** The Koa app, and its receiver (for a graceful shutdown). */
export interface App {
  app: Koa
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

  const app = new Koa()
  // POST /webhooks is answered here, above the body parser: the signature is over the body exactly as sent.
  app.use(ringhook(receiver))
  // The rest of the app parses JSON as usual.
  app.use(bodyParser())
  app.use(async (ctx) => {
    if (ctx.path === '/health' && ctx.method === 'GET') ctx.body = 'ok'
    else if (ctx.path === '/api/reply-message' && ctx.method === 'GET') ctx.body = { message: replyMessage ?? null }
    else if (ctx.path === '/api/reply-message' && ctx.method === 'POST') {
      const message = (ctx.request.body as { message?: unknown } | undefined)?.message
      if (typeof message !== 'string' || message.length === 0 || message.length > 80) {
        ctx.status = 400
        ctx.body = { error: 'message must be a string of 1 to 80 characters' }
        return
      }
      replyMessage = message
      ctx.body = { message }
    }
  })
  return { app, receiver }
}
