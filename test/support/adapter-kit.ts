// What the adapter packages' own tests share: a receiver that answers gestures, a signed gesture whose
// body only verifies as the exact bytes sent, and a logger that keeps what the developer is told.
import { createReceiver, type Logger, type ReceiverOptions, signWebhook, silentLogger, vibe } from '@ringhook/core'

export const SECRET = 'whsec_adapter_test'

/** A logger that keeps every warning and error, to check what the app developer is told. */
export function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string | undefined }> = []
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => void lines.push({ level: 'error', fields, message }),
    child: () => logger,
  }
  return { logger, lines }
}

/** A receiver whose gesture handler records each gesture type and answers `Got <type>`. */
export function gestureReceiver(options: Partial<ReceiverOptions> = {}) {
  const handled: string[] = []
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger, ...options })
  receiver.on('gesture', (event) => {
    handled.push(event.gesture_type)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  return { receiver, handled }
}

/**
 * A signed `double_tap` as fetch options. Its body is indented, which no JSON parser writes back: it
 * verifies only as the exact bytes received, so a body re-serialised on the way is caught.
 */
export async function signedGesture(extra: Record<string, unknown> = {}) {
  const payload = {
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: 'u-1',
    app_id: 'app_demo',
    timestamp: new Date().toISOString(),
    data: {},
    ...extra,
  }
  const body = JSON.stringify(payload, null, 1)
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, body }
}
