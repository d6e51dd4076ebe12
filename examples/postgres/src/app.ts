import { createServer, type Server } from 'node:http'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/node'
import { createPostgresInbox, migrate, type PostgresInbox } from '@ringhook/postgres'
import { drizzle } from 'drizzle-orm/node-postgres'
import type pg from 'pg'
import { APP_TABLES, gestures } from './schema.js'
import { answerKey, storable } from './storable.js'
import { keepUserStates, usersRoute } from './users.js'

/** The example app's server, its receiver and its inbox (for a graceful shutdown). */
export interface App {
  server: Server
  receiver: Receiver
  inbox: PostgresInbox<pg.PoolClient>
}

/**
 * The example app: each gesture is counted with Drizzle, each notification answer stored with
 * plain pg, both inside the transaction that holds the delivery's claim: written exactly once.
 * Whatever the kit accepts is stored (a NUL, an id of any length, one event_id in two apps): a
 * write Postgres refuses would fail the delivery on every retry, and the service would drop it.
 */
export async function createApp(
  secret: string,
  pool: pg.Pool,
  options: Pick<ReceiverOptions, 'logger' | 'capture'> = {},
  env: NodeJS.ProcessEnv = {},
): Promise<App> {
  await migrate(pool, { table: 'example_ringhook_dedup' })
  await pool.query(APP_TABLES)
  const inbox = createPostgresInbox({ pool, table: 'example_ringhook_dedup' })
  // 'retry': a handler still running at the deadline is answered 503, never 200 before it committed.
  const receiver = createReceiver({ ...options, secret, store: inbox, onDeadline: 'retry' })

  receiver.on(
    'gesture',
    inbox.handler(async (event, tx) => {
      // Drizzle on the delivery's client: its queries are part of the transaction.
      await drizzle(tx)
        .insert(gestures)
        .values({
          userAppId: storable(event.user_app_id),
          gestureType: storable(event.gesture_type),
          signedAt: storable(event.timestamp),
        })
      return vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`))
    }),
  )

  receiver.on(
    'notification.responded',
    inbox.handler(async (event, tx) => {
      const { app_id, user_app_id, data } = event
      // ON CONFLICT: the same answer delivered again after the inbox forgot it (past its TTL) is
      // already stored; it is acknowledged, not refused on every retry.
      await tx.query(
        `INSERT INTO example_notification_answers (answer_key, app_id, event_id, user_app_id, response)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (answer_key) DO NOTHING`,
        [
          answerKey(app_id, data.event_id),
          storable(app_id),
          storable(data.event_id),
          storable(user_app_id),
          storable(data.response),
        ],
      )
    }),
  )

  // Users' states (./users.ts), and GET /users for the admin.
  const users = await keepUserStates(receiver, inbox, pool, env)
  const listUsers = usersRoute(users, env.ADMIN_TOKEN)

  const webhooks = ringhook(receiver, { path: '/webhooks' })
  const server = createServer((request, response) => {
    if (request.url === '/health')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(health(options.capture)))
    if (listUsers(request, response)) return
    webhooks(request, response)
  })
  return { server, receiver, inbox }
}

/** The text cut to the trigger rules' 80 characters, with an ellipsis when cut. */
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
