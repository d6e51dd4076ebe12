import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/express'
import express, { type Express } from 'express'

/** The Express app, and its receiver (for a graceful shutdown). */
export interface App {
  app: Express
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

  const app = express()

  // The webhook route comes before express.json(): the signature is over the body exactly as sent.
  app.post('/webhooks', ringhook(receiver))

  // The rest of the app parses JSON as usual.
  app.use(express.json())
  app.get('/health', (_req, res) => void res.send('ok'))
  app.get('/api/reply-message', (_req, res) => void res.json({ message: replyMessage ?? null }))
  app.post('/api/reply-message', (req, res) => {
    const message: unknown = req.body?.message
    if (typeof message !== 'string' || message.length === 0 || message.length > 80) {
      return void res.status(400).json({ error: 'message must be a string of 1 to 80 characters' })
    }
    replyMessage = message
    res.json({ message })
  })
  return { app, receiver }
}
