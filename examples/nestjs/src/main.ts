import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileSink } from '@ringhook/capture'
import { createCapture } from '@ringhook/core/capture'
import { closeGracefully } from '@ringhook/node'
import pino from 'pino'
import { createApp } from './app.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start',
  )
  process.exit(1)
}
const port = Number(process.env.PORT ?? 3000)
// One JSON line per entry, ringhook's refused and failed deliveries included (never the secret),
// at LOG_LEVEL (default info). Readable while developing: `pnpm start | npx pino-pretty`.
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' })
// RINGHOOK_CAPTURE_FILE=captures.jsonl records every delivery answered, for `ringhook replay`.
const captureFile = process.env.RINGHOOK_CAPTURE_FILE
const capture = captureFile ? createCapture({ sink: fileSink({ path: captureFile }), logger }) : undefined

// The admin API (which sets what gestures are answered with) is served only with a long token.
const adminToken = process.env.ADMIN_TOKEN
if (adminToken !== undefined && adminToken.length < 32) {
  console.error('ADMIN_TOKEN must be at least 32 characters, e.g.\n  ADMIN_TOKEN=$(openssl rand -hex 32) pnpm start')
  process.exit(1)
}

if (!adminToken) console.log('ADMIN_TOKEN is not set: the admin API (/api/reply-message) is off')

const { app, receiver } = await createApp(secret, { logger, capture }, { token: adminToken })
await app.listen(port)
// Not `app.close()` on SIGTERM: it closes the server the way Node does, cutting idle kept-alive
// connections on which a request may be on its way. closeGracefully takes the server itself.
const server = app.getHttpServer() as Server
console.log(
  `ringhook example (NestJS) listening on http://localhost:${(server.address() as AddressInfo).port}/webhooks`,
)

// A deploy or scale-down sends SIGTERM (`pnpm start` runs node itself, so the signal reaches this
// process). The port closes; deliveries that still arrive on open connections are answered 503
// with Connection: close, so the service retries them (on another instance, or on this one
// restarted); handlers already running, even past the deadline, get 10 s to finish. Idle
// connections end on their keep-alive timeout (5 s), so no request is cut off mid-way.
let stopping = false
process.on('SIGTERM', async () => {
  // Process managers may send the signal more than once: shut down once.
  if (stopping) return
  stopping = true
  console.log('SIGTERM: finishing deliveries in progress')
  const { drained, pending } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
  console.log(drained ? 'Stopped cleanly' : `Stopped with ${pending} handler(s) still running`)
  process.exit(drained ? 0 : 1)
})
