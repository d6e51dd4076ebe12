import { fileSink } from '@ringhook/capture'
import { createCapture } from '@ringhook/core/capture'
import { closeGracefully } from '@ringhook/node'
import { Redis } from 'ioredis'
import pino from 'pino'
import { readConfig } from './config.js'
import { createWebApp } from './web.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start:web',
  )
  process.exit(1)
}
const { redisUrl, queue } = readConfig()
const port = Number(process.env.PORT ?? 3000)
// One JSON line per entry, ringhook's refused and failed deliveries included (never the secret),
// at LOG_LEVEL (default info). Readable while developing: `pnpm start:web | npx pino-pretty`.
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' })
// RINGHOOK_CAPTURE_FILE=captures.jsonl records every delivery answered, for `ringhook replay`.
const captureFile = process.env.RINGHOOK_CAPTURE_FILE
const capture = captureFile ? createCapture({ sink: fileSink({ path: captureFile }), logger }) : undefined

// One failed reconnection and a command fails: while Redis is away deliveries are answered 500 at
// once and the service retries them, instead of waiting on a job that may never be stored.
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
redis.on('error', (error) => console.warn(`[web] redis: ${error.message}`))

const { server, receiver, events } = createWebApp(secret, redis, queue, { logger, capture })
server.listen(port, () => {
  const address = server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  console.log(`ringhook example (queue, web) listening on http://localhost:${bound}/webhooks`)
})

// SIGTERM: stop accepting connections; deliveries still arriving are answered 503 so the service
// retries them; deliveries being stored get 10 s to finish. Then the queue and Redis are closed.
let stopping = false
process.on('SIGTERM', async () => {
  if (stopping) return
  stopping = true
  const { drained } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
  await events.close()
  await redis.quit()
  console.log(drained ? 'Stopped cleanly' : 'Stopped with deliveries still running')
  process.exit(drained ? 0 : 1)
})
