import { fileSink } from '@ringhook/capture'
import { createReceiver, type Receiver, VIBE_LIMITS, vibe } from '@ringhook/core'
import { createCapture } from '@ringhook/core/capture'

let receiver: Receiver | undefined

/**
 * The app's receiver, created on the first webhook rather than at import: `next build` imports
 * route modules, and the secret may only exist at run time.
 */
export function webhookReceiver(): Receiver {
  receiver ??= createWebhookReceiver(process.env.RING_WEBHOOK_SECRET, process.env.RINGHOOK_CAPTURE_FILE)
  return receiver
}

/**
 * The example's handlers: gestures get a vibe, lifecycle and response events are logged. With a
 * `captureFile`, every delivery answered is recorded there for `ringhook replay`.
 */
export function createWebhookReceiver(secret: string | undefined, captureFile?: string): Receiver {
  if (!secret) {
    throw new Error('RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page into .env.local')
  }
  const capture = captureFile ? createCapture({ sink: fileSink({ path: captureFile }) }) : undefined
  const created = createReceiver({ secret, ...(capture ? { capture } : {}) })
  created.on('gesture', (event) => vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`)))
  created.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  created.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })
  return created
}

/**
 * The text cut to the trigger rules' 80 characters, with an ellipsis when cut. A gesture type is
 * whatever the service sends: a reply the rules refuse would be a 500, retried forever.
 */
function fit(text: string): string {
  const characters = Array.from(text) // code points, as the rules count them
  const max = VIBE_LIMITS.maxMessageLength
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`
}
