// The apps every runtime serves. Outside vitest, @ringhook/* resolve to the BUILT packages (dist/),
// exactly what users install.

import { createReceiver, type Receiver, silentLogger, vibe } from '@ringhook/core'
import { hmacEngine } from '@ringhook/core/signature'
import { dedupKeyFor } from '@ringhook/core/store'
import { ringhook } from '@ringhook/hono'
import { Hono } from 'hono'

/** The slow handler runs past the receiver's deadline, so it is acknowledged before it finishes. */
const DEADLINE_MS = 100
const SLOW_HANDLER_MS = 300

/**
 * Answers a gesture with a vibe naming the runtime and the HMAC engine that verified it.
 * `app.installed` is slow: acknowledged at the deadline, it must still finish (Workers: waitUntil).
 */
export function smokeReceiver(secret: string, runtime: string): Receiver {
  const receiver = createReceiver({ secret, deadlineMs: DEADLINE_MS, logger: silentLogger })
  receiver.on('gesture', (event) =>
    vibe('tap', 'pulse').message(`${event.gesture_type} on ${runtime} (${hmacEngine().name})`),
  )
  receiver.on('app.installed', () => new Promise<void>((resolve) => setTimeout(resolve, SLOW_HANDLER_MS)))
  return receiver
}

/**
 * `receiver.fetch` as a route handler. Under `/read-first` the route parses the body before handing
 * the request over, the mistake the receiver must answer `body_already_parsed` rather than fail on.
 * `/dedup-key` answers the key this runtime names a posted payload by (its digest is hashed here).
 */
export function smokeFetch(secret: string, runtime: string): (request: Request) => Promise<Response> {
  const receiver = smokeReceiver(secret, runtime)
  return async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/dedup-key') return Response.json({ key: dedupKeyFor(await request.json()) })
    if (pathname === '/read-first') await request.json()
    return receiver.fetch(request)
  }
}

/** The same receiver behind @ringhook/hono, answering webhooks posted to any path. */
export function smokeHonoApp(secret: string, runtime: string): Hono {
  return new Hono().post('*', ringhook(smokeReceiver(secret, runtime)))
}
