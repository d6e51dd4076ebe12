import { Redis } from 'ioredis'
import pino from 'pino'
import { readConfig } from './config.js'
import { createWorkerApp } from './worker.js'

const { redisUrl, queue } = readConfig()
// One JSON line per entry, each job that failed or was given up included (never the secret),
// at LOG_LEVEL (default info). Readable while developing: `pnpm start:worker | npx pino-pretty`.
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' })
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
redis.on('error', (error) => console.warn(`[worker] redis: ${error.message}`))

const worker = createWorkerApp(redis, queue, logger)
worker.worker.once('ready', () => console.log(`ringhook example (queue, worker) taking jobs from ${queue}`))

// SIGTERM: take no new jobs, give running ones 10 s, and give back to the queue those still
// running then (another worker runs them; their effects are idempotent).
let stopping = false
process.on('SIGTERM', async () => {
  if (stopping) return
  stopping = true
  const { drained, returned } = await worker.close({ timeoutMs: 10_000 })
  await redis.quit()
  console.log(drained ? 'Stopped cleanly' : `Stopped; ${returned} job(s) given back to the queue`)
  process.exit(drained ? 0 : 1)
})
