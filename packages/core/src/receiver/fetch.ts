import { bodyConsumed, fetchBodyGone } from './consumed.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'

/** Anything with Workers' `waitUntil`, passed as the 2nd or 3rd argument of a fetch handler. */
interface WaitUntilHost {
  waitUntil(promise: Promise<unknown>): void
}

const hasWaitUntil = (value: unknown): value is WaitUntilHost =>
  typeof (value as WaitUntilHost | null)?.waitUntil === 'function'

/** Finds `waitUntil` in `(request, ctx)` (Bun, Deno, Next.js) or `(request, env, ctx)` (Workers). */
export function hooksFromArgs(args: readonly unknown[]): HandleHooks {
  const host = args.find(hasWaitUntil)
  return host ? { waitUntil: (promise) => host.waitUntil(promise) } : {}
}

const FETCH_BODY_CONSUMED = bodyConsumed(
  'Pass the Request to receiver.fetch() before anything reads it (await request.json(), request.text() or ' +
    'request.formData(), in the route or a middleware). If the route needs the body too, read a copy made ' +
    'first: `const copy = request.clone()`, then `await copy.json()` and `return receiver.fetch(request)`.',
)

/**
 * A Fetch `Request` as the core's request: the body is read by the core, with the limits. A body
 * something already read (or holds a reader on) is reported as `body_already_parsed`, with the fix,
 * rather than failing as a broken stream.
 */
export function fromFetchRequest(request: Request): WebhookRequest {
  if (fetchBodyGone(request)) {
    return { method: request.method, headers: request.headers, rawBody: null, bodyAlreadyParsed: FETCH_BODY_CONSUMED }
  }
  return { method: request.method, headers: request.headers, rawBody: request }
}

/** The core's response as a Fetch `Response`. */
export function toFetchResponse(response: WebhookResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers })
}
