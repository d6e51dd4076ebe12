import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createReceiver, type Receiver, type ReceiverOptions, VIBE_LIMITS, vibe } from '@ringhook/core'
import type { Capture } from '@ringhook/core/capture'
import { ringhook } from '@ringhook/node'
import { createUserStates, type UserStates, type UserStatesOptions } from '@ringhook/users'

/** The example app's server, its receiver (for a graceful shutdown) and its users' states. */
export interface App {
  server: Server
  receiver: Receiver
  users: UserStates
}

/** What the app's other routes need: the admin token of `GET /users`, and where states refresh from. */
export interface AppOptions {
  /** `GET /users` answers only `Authorization: Bearer <adminToken>`; off without one. */
  adminToken?: string | undefined
  /** A `@ringhook/client` and the app's id: states are loaded and refreshed from the API. */
  refresh?: Pick<UserStatesOptions, 'client' | 'appId' | 'refresh'>
}

/** The example app: answers every gesture with a vibe, keeps users' states, logs response events. */
export function createApp(
  secret: ReceiverOptions['secret'],
  options: Omit<ReceiverOptions, 'secret'> = {},
  app: AppOptions = {},
): App {
  const receiver = createReceiver({ ...options, secret })

  receiver.on('gesture', (event) => vibe('tap', 'pulse').message(fit(`Got your ${event.gesture_type}`)))

  // Each user's state, in the order of the events' timestamps whatever order they arrive in.
  const users = createUserStates(app.refresh ?? {})
  users.attach(receiver, ({ userAppId, after, stale }, event) => {
    console.log(`[app] ${event.event} for user ${userAppId}${stale ? ` (stale: still ${after.state})` : ''}`)
  })

  receiver.on('notification.responded', (event) => {
    console.log(`[app] user ${event.user_app_id} answered ${event.data.event_id}: ${event.data.response}`)
  })

  const webhooks = ringhook(receiver, { path: '/webhooks' })
  const server = createServer((request, response) => {
    // The app's other routes live beside the webhook path.
    if (request.url === '/health')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(health(options.capture)))
    if (request.url === '/users' && request.method === 'GET') {
      if (!authorized(request, app.adminToken)) {
        response.writeHead(401, { 'content-type': 'application/json' })
        return void response.end('{"error":{"code":"unauthorized"}}')
      }
      // A store that fails (a custom one, over a network) is this request's 500, logged; the
      // process and its webhooks go on.
      return void listUsers(users).then(
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
    }
    webhooks(request, response)
  })
  return { server, receiver, users }
}

/** `{"users":[{ user_app_id, state, since, source }]}`: active, passive and inactive users; uninstalled ones are absent. */
async function listUsers(users: UserStates): Promise<string> {
  const list: Array<Record<string, string>> = []
  for (const state of ['active', 'passive', 'inactive'] as const)
    for await (const user of users.inState(state))
      list.push({
        user_app_id: user.userAppId,
        state: user.state,
        since: user.since.toISOString(),
        source: user.source,
      })
  return JSON.stringify({ users: list })
}

/** Whether the request carries `Bearer <token>`, compared in constant time. */
function authorized(request: IncomingMessage, token: string | undefined): boolean {
  if (!token) return false
  const given = Buffer.from(request.headers.authorization ?? '')
  const expected = Buffer.from(`Bearer ${token}`)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * The text cut to the trigger rules' 80 characters, with an ellipsis when cut. A gesture type is
 * whatever the service sends: a reply the rules refuse would be a 500, retried forever.
 */
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
