import { createServer, type Server } from 'node:http'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createPostgresInbox, migrate, type PostgresInbox } from '@ringhook/postgres'
import { drizzle } from 'drizzle-orm/node-postgres'
import type pg from 'pg'
import { APP_TABLES, gestures } from './schema.js'
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
        .values({ userAppId: event.user_app_id, gestureType: event.gesture_type, signedAt: event.timestamp })
      return vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`))
    }),
  )

  receiver.on(
    'notification.responded',
    inbox.handler(async (event, tx) => {
      await tx.query('INSERT INTO example_answers (event_id, user_app_id, response) VALUES ($1, $2, $3)', [
        event.data.event_id,
        event.user_app_id,
        event.data.response,
      ])
    }),
  )

  // Users' states (./users.ts), and GET /users for the admin.
  const users = await keepUserStates(receiver, inbox, pool, env)
  const listUsers = usersRoute(users, env.ADMIN_TOKEN)

  const webhooks = ringhook(receiver, { path: '/webhooks' })
  const server = createServer((request, response) => {
    if (request.url === '/health') return void response.end('ok')
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
