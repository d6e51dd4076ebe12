// The app: a Hono app whose receiver keeps every delivery, every user's state and the service's
// limits in Durable Objects, shared by all the Worker's isolates wherever they run.

import { createRateLimiter } from '@ringhook/client'
import {
  createDurableLimitStore,
  createDurableStore,
  durableUserStore,
  type ObjectNamespace,
} from '@ringhook/cloudflare'
import { createReceiver, type Logger, VIBE_LIMITS, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/hono'
import { createUserStates, type UserStates } from '@ringhook/users'
import { Hono } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { jsonLogger } from './logger.js'

/** What the Worker is given: the Durable Object binding, the secret, and the optional settings. */
export interface Env {
  RINGHOOK: ObjectNamespace
  RING_WEBHOOK_SECRET?: string
  /** GET /users exists only with this token (at least 32 characters). */
  ADMIN_TOKEN?: string
  /** debug, info (the default), warn or error. */
  LOG_LEVEL?: string
}

/** Builds the app for one isolate; `env` is the same for every request of the Worker. */
export function createApp(env: Env): Hono {
  const logger: Logger = jsonLogger(env.LOG_LEVEL)
  const secret = env.RING_WEBHOOK_SECRET
  if (!secret) throw new Error('RING_WEBHOOK_SECRET is not set: npx wrangler secret put RING_WEBHOOK_SECRET')
  // Gesture replies spend the vibes the service allows each user (30 a minute), counted for every
  // isolate in one object; while it cannot be reached, each isolate counts alone on a share of them.
  const limiter = createRateLimiter({
    store: createDurableLimitStore({ namespace: env.RINGHOOK }),
    fallback: { fleetSize: 3 },
    logger,
  })
  const receiver = createReceiver({
    secret,
    logger,
    store: createDurableStore({ namespace: env.RINGHOOK }),
    vibeBudget: { budget: limiter },
  })
  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`)))
  const users = createUserStates({ store: durableUserStore({ namespace: env.RINGHOOK }) })
  users.attach(receiver, ({ userAppId, before, after, stale }) => {
    const what = stale ? `stale, still ${after.state}` : `${before?.state ?? 'new'} -> ${after.state}`
    logger.info({ user_app_id: userAppId }, `user ${what}`)
  })

  const app = new Hono()
  app.post('/webhooks', ringhook(receiver))
  app.get('/health', (c) => c.json({ status: 'ok' }))
  const token = env.ADMIN_TOKEN
  if (token && token.length >= 32) {
    app.use('/users', bearerAuth({ token }))
    app.get('/users', async (c) => c.json({ users: await listUsers(users) }))
  }
  return app
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

const MAX_MESSAGE = VIBE_LIMITS.maxMessageLength

/**
 * The text cut to the trigger rules' 80 characters, with an ellipsis when cut. A gesture type is
 * whatever the service sends: a reply the rules refuse would be a 500, retried forever.
 */
function fit(text: string): string {
  const characters = Array.from(text) // code points, as the rules count them
  return characters.length <= MAX_MESSAGE ? text : `${characters.slice(0, MAX_MESSAGE - 1).join('')}…`
}
