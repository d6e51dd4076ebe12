import { createServer, type RequestListener, type Server } from 'node:http'
import { trace } from '@opentelemetry/api'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/node'
import { otelInstrumentation } from '@ringhook/otel'

/** The example app's server, and its receiver (for a graceful shutdown). */
export interface App {
  server: Server
  receiver: Receiver
}

/**
 * The example app, traced and measured: answers every gesture with a vibe, records answers to
 * notifications in a span of its own (a child of the delivery's span), and serves `metrics` at
 * `GET /metrics` for Prometheus.
 */
export function createApp(
  secret: ReceiverOptions['secret'],
  metrics: RequestListener,
  options: Omit<ReceiverOptions, 'secret'> = {},
): App {
  const receiver = createReceiver({ ...options, secret, instrumentation: otelInstrumentation({ route: '/webhooks' }) })
  const tracer = trace.getTracer('ring-app')

  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`)))

  receiver.on(['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'], (event) => {
    console.log(`[app] ${event.event} for user ${event.user_app_id}`)
  })

  // Where an app would write to its database: that call's span is a child of the delivery's.
  receiver.on('notification.responded', (event) =>
    tracer.startActiveSpan('save answer', (span) => {
      console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
      span.end()
    }),
  )

  const webhooks = ringhook(receiver, { path: '/webhooks' })
  const server = createServer((request, response) => {
    if (request.url === '/health')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(health(options.capture)))
    if (request.url === '/metrics' && request.method === 'GET') return metrics(request, response)
    webhooks(request, response)
  })
  return { server, receiver }
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

/**
 * What `GET /health` answers: up, and with capture on, what it recorded and lost (`stats()`), so a
 * capture losing records shows where the app is watched, not only in a log line.
 */
function health(capture: Capture | undefined) {
  return { status: 'ok', ...(capture ? { capture: capture.stats() } : {}) }
}
