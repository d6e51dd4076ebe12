import { createServer, type Server } from 'node:http'
import { createEventQueue, type EventQueue } from '@ringhook/bullmq'
import { createReceiver, type Receiver, type ReceiverOptions, vibe } from '@ringhook/core'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/node'
import type { Redis } from 'ioredis'

export interface WebApp {
  server: Server
  receiver: Receiver
  events: EventQueue
}

/**
 * The web process: verifies each delivery, answers gestures with a vibe at once, and stores every
 * other event on the queue before acknowledging it. No app logic runs here but the vibe.
 */
export function createWebApp(
  secret: string,
  redis: Redis,
  queue: string,
  options: Pick<ReceiverOptions, 'logger' | 'capture'> = {},
): WebApp {
  const events = createEventQueue({ connection: redis, name: queue })
  const receiver = events.attach(createReceiver({ ...options, secret }))
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(upTo80(`Got your ${event.gesture_type}`)))

  const webhooks = ringhook(receiver, { path: '/webhooks' })
  const server = createServer((request, response) => {
    if (request.url === '/health')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(health(options.capture)))
    webhooks(request, response)
  })
  return { server, receiver, events }
}

/** The trigger rules' limit on a vibe's message, in characters (code points). */
const MESSAGE_LIMIT = 80

/**
 * `text` kept within the message limit, its end replaced by an ellipsis when it is longer. The
 * service may send any gesture type: a message past the limit would fail the reply, answered 500
 * and retried until the service gives up.
 */
function upTo80(text: string): string {
  const points = [...text]
  if (points.length <= MESSAGE_LIMIT) return text
  return `${points.slice(0, MESSAGE_LIMIT - 1).join('')}…`
}

/**
 * What `GET /health` answers: up, and with capture on, what it recorded and lost (`stats()`), so a
 * capture losing records shows where the app is watched, not only in a log line.
 */
function health(capture: Capture | undefined) {
  return { status: 'ok', ...(capture ? { capture: capture.stats() } : {}) }
}
