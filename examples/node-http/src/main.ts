import type { AddressInfo } from 'node:net'
import { fileSink } from '@ringhook/capture'
import { createClient } from '@ringhook/client'
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

// GET /users (the users' states) is served only with a long token.
const adminToken = process.env.ADMIN_TOKEN
if (adminToken !== undefined && adminToken.length < 32) {
  console.error('ADMIN_TOKEN must be at least 32 characters, e.g.\n  ADMIN_TOKEN=$(openssl rand -hex 32) pnpm start')
  process.exit(1)
}
if (!adminToken) console.log('ADMIN_TOKEN is not set: GET /users is off')
// With an API key, the service's base URL and the app's id, states are loaded at start and refreshed.
const { RING_API_KEY: apiKey, RING_API_URL: apiUrl, RING_APP_ID: appId } = process.env
const refresh =
  apiKey && apiUrl && appId
    ? {
        client: createClient({ apiKey, baseUrl: apiUrl, rateLimit: true, logger }),
        appId,
        refresh: { everyMs: 10 * 60_000 },
      }
    : undefined
if (!refresh)
  console.log('RING_API_KEY, RING_API_URL or RING_APP_ID is not set: users’ states come from webhooks alone')

const { server, receiver, users } = createApp(secret, { logger, capture }, { adminToken, refresh })
server.listen(port, () => {
  // The port bound, which PORT=0 leaves to the system.
  const bound = (server.address() as AddressInfo).port
  console.log(`ringhook example (node:http) listening on http://localhost:${bound}/webhooks`)
})
if (refresh)
  users.start().then(
    ({ listed }) => console.log(`Users' states loaded from the API: ${listed} users`),
    (error: Error) => console.warn(`Loading users' states failed: ${error.message}`),
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
  users.close()
  const { drained, pending } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
  console.log(drained ? 'Stopped cleanly' : `Stopped with ${pending} handler(s) still running`)
  process.exit(drained ? 0 : 1)
})
