import type { AddressInfo } from 'node:net'
import { fileSink } from '@ringhook/capture'
import { createCapture } from '@ringhook/core/capture'
import { closeGracefully } from '@ringhook/node'
import pg from 'pg'
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
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: 20,
  connectionTimeoutMillis: 2_000,
})
// An idle client whose connection broke: the pool drops it and opens another when needed.
pool.on('error', (error) => console.warn('postgres:', error.message))

if (process.env.ADMIN_TOKEN !== undefined && process.env.ADMIN_TOKEN.length < 32) {
  console.error('ADMIN_TOKEN must be at least 32 characters, e.g.\n  ADMIN_TOKEN=$(openssl rand -hex 32) pnpm start')
  process.exit(1)
}
const { server, receiver, inbox } = await createApp(secret, pool, { logger, capture }, process.env)
server.listen(port, () => {
  // The port bound, which PORT=0 leaves to the system.
  const bound = (server.address() as AddressInfo).port
  console.log(`ringhook example (Postgres inbox) listening on http://localhost:${bound}/webhooks`)
})

// SIGTERM: the port closes, deliveries in progress finish (each commits or rolls back), then the
// transactions still open are rolled back and the pool is closed.
let stopping = false
process.on('SIGTERM', async () => {
  if (stopping) return
  stopping = true
  console.log('SIGTERM: finishing deliveries in progress')
  const { drained, pending } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
  await inbox.close()
  await pool.end()
  console.log(drained ? 'Stopped cleanly' : `Stopped with ${pending} handler(s) still running`)
  process.exit(drained ? 0 : 1)
})
