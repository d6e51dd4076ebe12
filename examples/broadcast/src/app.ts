import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createClient, createRateLimiter } from '@ringhook/client'
import { createReceiver, type Logger, type Receiver, VIBE_LIMITS, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createRedisLimitStore, createRedisStore } from '@ringhook/redis'
import type { UserStates } from '@ringhook/users'
import type { Redis } from 'ioredis'
import { type Broadcaster, createBroadcaster } from './broadcast.js'
import { keepUsers, type Users } from './users.js'

export interface AppConfig {
  secret: string
  apiKey: string
  apiUrl: string
  appId: string
  /** Guards the admin routes; without one they do not exist. */
  adminToken: string | undefined
  /** For dedup and the users' states. */
  redis: Redis
  /** Before every key the app keeps in Redis. */
  redisPrefix: string
  /** For the limits: a connection without an offline queue, so a command fails at once while Redis is away. */
  limitsRedis: Redis
  /** How many instances share the key: each keeps to 1/fleetSize of the limits while Redis is away. */
  fleetSize: number
  logger: Logger
}

export interface App {
  server: Server
  receiver: Receiver
  broadcaster: Broadcaster
  users: Users
}

/**
 * One instance of the app. Every instance shares, through Redis: which deliveries were handled
 * (dedup), the users' states, and the service's limits (100 requests / 60 s for the key, 30 vibes a
 * minute per user, gesture replies included).
 */
export function createApp(config: AppConfig): App {
  const { logger, redisPrefix: prefix } = config
  const limiter = createRateLimiter({
    store: createRedisLimitStore({ client: config.limitsRedis, prefix: `${prefix}limits:` }),
    fallback: { fleetSize: config.fleetSize },
    // A broadcast vibe waits 10 s for its slot at most, then is skipped: under a flood of broadcasts,
    // vibes do not pile up for minutes, and those sent are recent.
    maxWaitMs: 10_000,
    logger,
  })
  const client = createClient({ apiKey: config.apiKey, baseUrl: config.apiUrl, rateLimit: limiter, logger })
  const receiver = createReceiver({
    secret: config.secret,
    logger,
    store: createRedisStore({ client: config.redis, prefix: `${prefix}dedup:` }),
    // Gesture replies spend the same budget as the triggers; over it, the reply goes without its vibe.
    vibeBudget: { budget: limiter },
  })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`)))
  // Each user's state, from the lifecycle webhooks in timestamp order, shared by the fleet in Redis.
  const users = keepUsers(receiver, {
    client,
    appId: config.appId,
    redis: config.redis,
    prefix,
    fleetSize: config.fleetSize,
    logger,
  })
  const broadcaster = createBroadcaster({ client, users: users.states, appId: config.appId, logger, maxPending: 200 })

  const webhooks = ringhook(receiver, { path: '/webhooks' })
  const admin = config.adminToken ? adminRoutes(config.adminToken, broadcaster, users, receiver) : notFound
  const server = createServer((request, response) => {
    if (request.url === '/health') return void response.end('ok')
    // By path: `/webhooks?anything` is the webhook route too, as in the other examples.
    if (request.url?.split('?', 1)[0] === '/webhooks') return webhooks(request, response)
    admin(request, response).catch((error: unknown) => {
      logger.error({ error: String(error) }, 'An admin request failed')
      if (!response.headersSent) json(response, 500, { error: 'internal_error' })
    })
  })
  return { server, receiver, broadcaster, users }
}

const notFound = async (_request: IncomingMessage, response: ServerResponse) =>
  json(response, 404, { error: 'not_found' })

function adminRoutes(token: string, broadcaster: Broadcaster, users: Users, receiver: Receiver) {
  const expected = digest(token)
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const route = `${request.method} ${request.url}`
    if (!['POST /broadcast', 'GET /users', 'GET /stats'].includes(route))
      return json(response, 404, { error: 'not_found' })
    // Checked before the body is read, in constant time.
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
    if (!timingSafeEqual(digest(given), expected)) return json(response, 401, { error: 'unauthorized' })
    if (route === 'GET /users') return json(response, 200, { users: await listUsers(users.states) })
    if (route === 'GET /stats')
      return json(response, 200, { ...broadcaster.stats(), replies: receiver.options.limits?.stats() })
    const message = messageOf(await readBody(request, 1024))
    if (message === undefined)
      return json(response, 400, { error: 'invalid_message', detail: 'body must be {"message": "1 to 80 characters"}' })
    broadcaster.start(message)
    return json(response, 202, { accepted: true })
  }
}

/** Active, passive and inactive users, as `{ user_app_id, state, since, source }`; uninstalled ones are absent. */
async function listUsers(states: UserStates): Promise<Array<Record<string, string>>> {
  const list: Array<Record<string, string>> = []
  for (const state of ['active', 'passive', 'inactive'] as const)
    for await (const user of states.inState(state))
      list.push({
        user_app_id: user.userAppId,
        state: user.state,
        since: user.since.toISOString(),
        source: user.source,
      })
  return list
}

const digest = (text: string) => createHash('sha256').update(text).digest()

function messageOf(body: string | undefined): string | undefined {
  try {
    const message = (JSON.parse(body ?? '') as { message?: unknown }).message
    if (typeof message !== 'string') return undefined
    const length = Array.from(message).length
    return length >= 1 && length <= VIBE_LIMITS.maxMessageLength ? message : undefined
  } catch {
    return undefined
  }
}

/** The body as text, or undefined past `max` bytes. */
async function readBody(request: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > max) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** The text cut to the trigger rules' 80 characters, with an ellipsis when cut. */
function fit(text: string): string {
  const characters = Array.from(text)
  const max = VIBE_LIMITS.maxMessageLength
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`
}
