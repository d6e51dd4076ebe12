import { bodyAlreadyParsed, refuse } from '../answer.js'
import { type BodyResult, readBody } from '../body.js'
import { bodyConsumed, bodyGone, bodyLocked } from '../consumed.js'
import type { Answered, Delivery, Environment, Step } from '../delivery.js'

// receiver.fetch() says so before this stage, in its own words; this is for a Request or stream
// given to receiver.handle() directly, which would otherwise fail to read as body_incomplete.
const HANDLE_BODY_CONSUMED = bodyConsumed(
  'Give receiver.handle() the request body before anything reads it (request.json(), request.text() or a ' +
    'reader on request.body, in the route or a middleware). If the route needs the body too, read a copy ' +
    'made first: `const copy = request.clone()`, then `await copy.json()`, and hand the original over.',
)

/** Reads the body within `maxBodyBytes` and `bodyTimeoutMs`: at once when it is already buffered. */
export function receiveBody(delivery: Delivery, env: Environment): Step<BodyResult> {
  const body = delivery.request.rawBody
  if (bodyGone(body)) return bodyAlreadyParsed(delivery, env, HANDLE_BODY_CONSUMED)
  return readBody(body, env.options.maxBodyBytes, env.options.bodyTimeoutMs)
}

/**
 * Refuses a body that could not be read, with its reason; a Fetch `Request` whose stream a reader
 * holds (found only now, see `fetchBodyGone`) is `body_already_parsed` with the fix, not `body_incomplete`.
 */
export function refuseUnread(
  delivery: Delivery,
  env: Environment,
  code: Exclude<BodyResult, { ok: true }>['code'],
): Answered {
  if (code === 'body_incomplete' && bodyLocked(delivery.request.rawBody))
    return bodyAlreadyParsed(delivery, env, HANDLE_BODY_CONSUMED)
  return refuse(delivery, env, code)
}
