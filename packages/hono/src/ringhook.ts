import type { Receiver } from '@ringhook/core'
import {
  bodyConsumed,
  fetchBodyGone,
  type HandleHooks,
  toFetchResponse,
  type WebhookRequest,
} from '@ringhook/core/adapter'
import type { Context } from 'hono'

/** A Hono handler, usable with `app.post()`, `app.all()` and `app.on()`. */
export type RinghookHandler = (c: Context) => Promise<Response>

const BODY_CONSUMED_FIX = bodyConsumed(
  'Hono keeps no copy of a body read from c.req.raw directly or parsed as form data. Mount ringhook before ' +
    'that middleware, or read the body there with c.req.text(), c.req.json() or c.req.arrayBuffer(), which ' +
    'Hono caches as received.',
)

/**
 * Mounts a receiver on Hono. Web-standard APIs only, so it runs wherever Hono does (Node through
 * @hono/node-server, Bun, Deno, Workers). On Workers, work that outlives the response (handlers
 * past the deadline) is handed to `executionCtx.waitUntil` so the runtime does not cancel it.
 *
 * @example
 * import { Hono } from 'hono'
 * const app = new Hono()
 * app.post('/webhooks', ringhook(receiver))
 */
export function ringhook(receiver: Receiver): RinghookHandler {
  return function ringhookHono(c) {
    const { raw } = c.req
    // The usual case: nothing has read the body, and the receiver reads it with its limits.
    if (!fetchBodyGone(raw)) return respond(receiver, { method: raw.method, headers: raw.headers, rawBody: raw }, c)
    return cachedBody(c).then((body) => respond(receiver, { method: raw.method, headers: raw.headers, ...body }, c))
  }
}

const respond = (receiver: Receiver, request: WebhookRequest, c: Context): Promise<Response> =>
  receiver.handle(request, hooksOf(c)).then(toFetchResponse)

async function cachedBody(c: Context): Promise<Pick<WebhookRequest, 'rawBody' | 'bodyAlreadyParsed'>> {
  // An earlier c.req.text()/json()/arrayBuffer() left the exact body in Hono's cache.
  const { arrayBuffer, text } = c.req.bodyCache
  if (arrayBuffer) return { rawBody: new Uint8Array(await arrayBuffer) }
  if (text !== undefined) return { rawBody: await text }
  return { rawBody: null, bodyAlreadyParsed: BODY_CONSUMED_FIX }
}

// Looked up only when work outlives the response: on Node, Hono throws (an Error with its stack
// trace, costly on every request) when asked for an execution context it does not have.
function hooksOf(c: Context): HandleHooks {
  return { waitUntil: (promise) => executionContextOf(c)?.waitUntil(promise) }
}

function executionContextOf(c: Context): { waitUntil(promise: Promise<unknown>): void } | undefined {
  try {
    const ctx = c.executionCtx
    return typeof ctx?.waitUntil === 'function' ? ctx : undefined
  } catch {
    // Hono throws when the runtime passed no execution context (Node, Bun, Deno): nothing to extend.
    return undefined
  }
}
