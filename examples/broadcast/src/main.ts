import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { closeGracefully } from '@ringhook/node'
import { Redis } from 'ioredis'
import pino from 'pino'
import { createApp } from './app.js'

const env = (name: string, hint: string): string => {
  const value = process.env[name]
  if (value) return value
  console.error(`${name} is not set: ${hint}`)
  process.exit(1)
}
const secret = env('RING_WEBHOOK_SECRET', 'copy the webhook secret from the apps page (whsec_...)')
const apiKey = env('RING_API_KEY', 'copy the API key from the apps page')
const apiUrl = env('RING_API_URL', "the service's base URL, e.g. https://api.example.com")
const appId = env('RING_APP_ID', 'the app id (app_...)')
// The admin routes (POST /broadcast, GET /users, GET /stats) exist only with a token to guard them.
const adminToken = process.env.ADMIN_TOKEN
if (!adminToken) console.log('ADMIN_TOKEN is not set: POST /broadcast, GET /users and GET /stats are off')
else if (adminToken.length < 32) {
  console.error('ADMIN_TOKEN must be at least 32 characters, e.g. $(openssl rand -hex 32)')
  process.exit(1)
}
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const redisPrefix = process.env.REDIS_PREFIX ?? 'broadcast:'
const fleetSize = Number(process.env.FLEET_SIZE ?? 3)
const port = Number(process.env.PORT ?? 3000)
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' })

// A command waits through at most one failed reconnection, so nothing piles up while Redis is away.
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
// The limits' own connection fails a command at once while Redis is away: the limiter then counts
// alone against its share, never waiting on a queue that would run the command late.
const limitsRedis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
for (const connection of [redis, limitsRedis])
  connection.on('error', (error: Error) => logger.debug({ error: error.message }, 'redis'))
// Started with Redis away, the app still starts (each instance on its share of the limits).
await Promise.race([once(limitsRedis, 'ready'), sleep(2000)])

const { server, receiver, users } = createApp({
  secret,
  apiKey,
  apiUrl,
  appId,
  adminToken,
  redis,
  redisPrefix,
  limitsRedis,
  fleetSize,
  logger,
})
server.listen(port, () => {
  const bound = (server.address() as AddressInfo).port
  console.log(`ringhook broadcast example listening on http://localhost:${bound} (webhooks at /webhooks)`)
})
// The first instance to start loads every user from the API; the others find the states in Redis.
users.refresh().catch((error: Error) => logger.warn({ error: error.message }, "Loading users' states failed"))

let stopping = false
process.on('SIGTERM', async () => {
  if (stopping) return
  stopping = true
  console.log('SIGTERM: finishing deliveries in progress')
  users.close()
  const { drained, pending } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
  redis.disconnect()
  limitsRedis.disconnect()
  console.log(drained ? 'Stopped cleanly' : `Stopped with ${pending} handler(s) still running`)
  process.exit(drained ? 0 : 1)
})
