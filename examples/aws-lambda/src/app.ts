import { ringhook } from '@ringhook/aws-lambda'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'

/** The receiver and the Lambda handler that serves it. */
export interface App {
  receiver: Receiver
  handler: ReturnType<typeof ringhook>
}

/** The example's receiver: answers gestures with a vibe, logs lifecycle and response events. */
export function createApp(secret: ReceiverOptions['secret'], options: Omit<ReceiverOptions, 'secret'> = {}): App {
  const receiver = createReceiver({
    // Lambda freezes the function once it has answered: a handler past the deadline might never
    // finish, so the answer then is a 503 the service retries rather than a 2xx.
    onDeadline: 'retry',
    // Below the function timeout (set it to 15 s), so the receiver always answers first.
    deadlineMs: 8_000,
    ...options,
    secret,
  })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`)))
  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })
  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })
  return { receiver, handler: ringhook(receiver) }
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
