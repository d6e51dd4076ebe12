import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createClient } from '@ringhook/client'
import type { Receiver } from '@ringhook/core'
import type { PostgresInbox } from '@ringhook/postgres'
import { migrateUserStates, postgresUserStore } from '@ringhook/postgres'
import { createUserStates, LIFECYCLE_EVENTS, type UserStates } from '@ringhook/users'
import type pg from 'pg'

const TABLE = 'example_ringhook_users'

/**
 * Keeps each user's state in Postgres, written in the delivery's inbox transaction: the state and
 * the delivery's claim commit together. With RING_API_KEY, RING_API_URL and RING_APP_ID, states are
 * loaded from the API at start and refreshed every 10 minutes.
 */
export async function keepUserStates(
  receiver: Receiver,
  inbox: PostgresInbox<pg.PoolClient>,
  pool: pg.Pool,
  env: NodeJS.ProcessEnv,
): Promise<UserStates<pg.PoolClient>> {
  await migrateUserStates(pool, { table: TABLE })
  const { RING_API_KEY: apiKey, RING_API_URL: apiUrl, RING_APP_ID: appId } = env
  const client = apiKey && apiUrl ? createClient({ apiKey, baseUrl: apiUrl, rateLimit: true }) : undefined
  const users = createUserStates<pg.PoolClient>({
    store: postgresUserStore({ pool, table: TABLE }),
    ...(client && appId ? { client, appId, refresh: { everyMs: 10 * 60_000 } } : {}),
  })
  receiver.on(
    LIFECYCLE_EVENTS,
    inbox.handler(async (event, tx) => {
      const { before, after, stale } = await users.apply(event, tx)
      const what = stale ? `stale, still ${after.state}` : `${before?.state ?? 'new'} -> ${after.state}`
      console.log(`[app] user ${event.user_app_id}: ${what}`)
    }),
  )
  if (client && appId)
    users.start().then(
      ({ listed }) => console.log(`Users' states loaded from the API: ${listed} users`),
      (error: Error) => console.warn(`Loading users' states failed: ${error.message}`),
    )
  else console.log('RING_API_KEY, RING_API_URL or RING_APP_ID is not set: users’ states come from webhooks alone')
  return users
}

/**
 * `GET /users` with `Authorization: Bearer $ADMIN_TOKEN`: `{"users":[{ user_app_id, state, since, source }]}`,
 * uninstalled users absent. Returns false for any other request.
 */
export function usersRoute(users: UserStates<pg.PoolClient>, adminToken: string | undefined) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.url !== '/users' || request.method !== 'GET') return false
    const given = Buffer.from(request.headers.authorization ?? '')
    const expected = Buffer.from(`Bearer ${adminToken}`)
    if (!adminToken || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      response.writeHead(401, { 'content-type': 'application/json' })
      response.end('{"error":{"code":"unauthorized"}}')
      return true
    }
    // A failing query (a failover, a renamed table) is this request's 500, logged; the process and
    // its webhooks go on.
    list(users).then(
      (body) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(body)
      },
      (error: unknown) => {
        console.error(`[app] GET /users failed: ${(error as Error)?.message ?? error}`)
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' })
        response.end('{"error":{"code":"internal_error"}}')
      },
    )
    return true
  }
}

async function list(users: UserStates<pg.PoolClient>): Promise<string> {
  const listed: Array<Record<string, string>> = []
  for (const state of ['active', 'passive', 'inactive'] as const)
    for await (const user of users.inState(state))
      listed.push({
        user_app_id: user.userAppId,
        state: user.state,
        since: user.since.toISOString(),
        source: user.source,
      })
  return JSON.stringify({ users: listed })
}
