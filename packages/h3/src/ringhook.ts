import type { Receiver } from '@ringhook/core'
import {
  bodyConsumed,
  closesConnection,
  fetchBodyGone,
  toFetchResponse,
  type WebhookRequest,
} from '@ringhook/core/adapter'
import type { H3Event } from 'h3'

/** An h3 handler, usable with `app.post()`, `app.all()` and Nitro's `defineHandler`. */
export type RinghookHandler = (event: H3Event) => Promise<Response>

const BODY_CONSUMED_FIX = bodyConsumed(
  'h3 keeps no copy of a body read with readBody(event), event.req.json() or event.req.text() in a middleware ' +
    'or earlier in the handler. Let ringhook read it first: skip the webhook route in that middleware, or mount ' +
    'ringhook on its own route before anything reads the body.',
)

/**
 * Mounts a receiver on h3 v2 (Nitro v3, or any h3 app on Node, Bun, Deno or Workers). The request
 * is h3's Web `Request`; the receiver reads its body with its limits. Work that outlives the
 * response (handlers past the deadline) is handed to `event.waitUntil`, so the runtime keeps it.
 *
 * @example
 * import { H3 } from 'h3'
 *
 * const app = new H3()
 * app.post('/webhooks', ringhook(receiver))
 */
export function ringhook(receiver: Receiver): RinghookHandler {
  return function ringhookH3(event) {
    const { req } = event
    // h3 reads bodies straight from the stream, so a body read earlier is gone: say so, never a 401.
    const request: WebhookRequest = fetchBodyGone(req)
      ? { method: req.method, headers: req.headers, rawBody: null, bodyAlreadyParsed: BODY_CONSUMED_FIX }
      : { method: req.method, headers: req.headers, rawBody: req }
    return receiver.handle(request, { waitUntil: (promise) => event.waitUntil(promise) }).then((result) => {
      const response = toFetchResponse(result)
      if (closesConnection(event.runtime?.node?.req)) response.headers.set('connection', 'close')
      return response
    })
  }
}
