import { createReceiver, type Receiver, vibe } from '@ringhook/core'

let receiver: Receiver | undefined

/**
 * The app's receiver, created on the first webhook rather than at import: `next build` imports
 * route modules, and the secret may only exist at run time.
 */
export function webhookReceiver(): Receiver {
  receiver ??= createWebhookReceiver(process.env.RING_WEBHOOK_SECRET)
  return receiver
}

/** The example's handlers: gestures get a vibe, lifecycle and response events are logged. */
export function createWebhookReceiver(secret: string | undefined): Receiver {
  if (!secret) {
    throw new Error('RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page into .env.local')
  }
  const created = createReceiver({ secret })
  created.on('gesture', (event) => vibe('tap', 'pulse').message(`Got your ${event.gesture_type}`))
  created.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  created.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })
  return created
}
