// What the adapter packages' own tests share: a receiver that answers gestures, a signed gesture whose
// body only verifies as the exact bytes sent, a logger that keeps what the developer is told, and
// requests the receiver refuses from their head alone.
import { connect } from 'node:net'
import { createReceiver, type Logger, type ReceiverOptions, silentLogger, vibe } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'

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
 * A payload written as a sender might write it, which no `JSON.stringify` of its parse gives back:
 * keys in reverse order, spaces around them, and an "é" escaped as \u00e9. An adapter that hands the
 * receiver a re-serialised body instead of the bytes received fails the signature with it.
 */
export function rawJson(payload: Record<string, unknown>): string {
  const data = typeof payload.data === 'object' && payload.data !== null ? payload.data : {}
  const fields = Object.entries({ ...payload, data: { ...data, place: 'café' } })
    .reverse()
    .map(([key, value]) => `"${key}" : ${JSON.stringify(value)}`)
  return `{ ${fields.join(',  ')} }`.replaceAll('é', '\\u00e9')
}

/**
 * A `double_tap` gesture as {@link rawJson} writes it, stamped now: the text to sign, e.g. with
 * `signed(gestureText(), SECRET)` of @ringhook/testing.
 */
export function gestureText(extra: Record<string, unknown> = {}): string {
  return rawJson({
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: 'u-1',
    app_id: 'app_demo',
    timestamp: new Date().toISOString(),
    data: {},
    ...extra,
  })
}

/** A signed {@link gestureText} as fetch options. */
export async function signedGesture(extra: Record<string, unknown> = {}) {
  const body = gestureText(extra)
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { method: 'POST', headers, body }
}

/** What a receiver with `maxBodyBytes: 1000` refuses from a request's head: the case, method, content type, declared length and status line. */
export const REFUSED_FROM_HEAD: readonly (readonly [string, string, string, number, string])[] = [
  ['a Content-Length over maxBodyBytes', 'POST', 'application/json', 2000, 'HTTP/1.1 413 Payload Too Large'],
  ['a content type other than JSON', 'POST', 'text/plain', 100, 'HTTP/1.1 415 Unsupported Media Type'],
  ['a method other than POST', 'PUT', 'application/json', 100, 'HTTP/1.1 405 Method Not Allowed'],
]

/**
 * Sends a request's head to the server at `url` and never its body, and resolves with the status line
 * of the answer: an adapter that waited for the body would not answer before its body timeout.
 */
export function statusLineWithoutBody(url: string, method: string, type: string, length: number): Promise<string> {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  return new Promise<string>((resolve) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (!text.includes('}')) return
      socket.destroy()
      resolve(text.split('\r\n')[0] as string)
    })
    socket.write(
      `${method} /webhooks HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\ncontent-length: ${length}\r\n\r\n`,
    )
  })
}
