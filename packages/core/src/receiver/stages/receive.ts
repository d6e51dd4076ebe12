import { answerError, bodyAlreadyParsed, refuse, shuttingDown } from '../answer.js'
import { type BodyInput, type BodyResult, readBody } from '../body.js'
import { bodyConsumed } from '../consumed.js'
import type { Stage } from '../stage.js'
import { declaredLength, headRefusal } from '../unread.js'

const ALLOW_POST = Object.freeze({ allow: 'POST' })

// receiver.fetch() says so before this stage, in its own words; this is for a Request or stream
// given to receiver.handle() directly, which would otherwise fail to read as body_incomplete.
const HANDLE_BODY_CONSUMED = bodyConsumed(
  'Give receiver.handle() the request body before anything reads it (request.json(), request.text() or a ' +
    'reader on request.body, in the route or a middleware). If the route needs the body too, read a copy ' +
    'made first: `const copy = request.clone()`, then `await copy.json()`, and hand the original over.',
)

/**
 * Receive: what the request line and headers alone decide (open, POST, no parser ran first, declared size,
 * JSON: `headRefusal()`, unread.ts), then the body within `maxBodyBytes` and `bodyTimeoutMs`. Answers 503
 * `shutting_down`, 405, 500 `body_already_parsed`, 413, 415, 408 `body_timeout`, 400 `body_incomplete`.
 */
export const receive: Stage<undefined, BodyResult, Uint8Array> = {
  start(exchange, env) {
    if (env.state.closing) return shuttingDown(exchange)
    const { method, headers, rawBody, bodyAlreadyParsed: fix } = exchange.request
    const refusal = headRefusal(env.options, method, headers)
    if (refusal === 'method_not_allowed') return answerError(exchange, refusal, ALLOW_POST)
    // An app misconfiguration, not a bad delivery: say so instead of failing every signature.
    if (fix) return bodyAlreadyParsed(exchange, env, fix)
    if (refusal === 'payload_too_large') return refuse(exchange, env, refusal, { declared: declaredLength(headers) })
    if (refusal) return refuse(exchange, env, refusal)
    if (bodyGone(rawBody)) return bodyAlreadyParsed(exchange, env, HANDLE_BODY_CONSUMED)
    return readBody(rawBody, env.options.maxBodyBytes, env.options.bodyTimeoutMs)
  },

  judge(exchange, env, body) {
    if (body.ok) {
      exchange.bytes = body.bytes
      return body.bytes
    }
    // A Fetch `Request` whose stream a reader holds is found only now (see `fetchBodyGone`): say so, with the fix.
    if (body.code === 'body_incomplete' && bodyLocked(exchange.request.rawBody))
      return bodyAlreadyParsed(exchange, env, HANDLE_BODY_CONSUMED)
    return refuse(exchange, env, body.code)
  },
}

/** A body handed to the core that cannot be read: a consumed Fetch `Request`, or a stream a reader holds. */
function bodyGone(body: BodyInput): boolean {
  if (body === null || typeof body !== 'object') return false
  if ('bodyUsed' in body) return (body as { bodyUsed: boolean }).bodyUsed
  return 'locked' in body && body.locked === true
}

/**
 * After reading failed: whether it failed because a reader holds the Fetch `Request`'s stream. A read
 * that began and broke off (the client left) leaves the body used; one refused for a lock leaves it
 * unused and locked. Asked in that order, so a broken read never asks for `request.body`.
 */
function bodyLocked(body: BodyInput): boolean {
  if (body === null || typeof body !== 'object' || !('bodyUsed' in body)) return false
  const request = body as { readonly bodyUsed: boolean; readonly body?: ReadableStream | null }
  return !request.bodyUsed && request.body?.locked === true
}
