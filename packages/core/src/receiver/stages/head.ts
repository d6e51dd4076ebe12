import { answerError, bodyAlreadyParsed, refuse, shuttingDown } from '../answer.js'
import type { Delivery, Environment, Step } from '../delivery.js'
import { declaredLength, headRefusal } from '../unread.js'

const ALLOW_POST = Object.freeze({ allow: 'POST' })

/**
 * What the request line and headers alone decide: the receiver is open, the method is POST, no body
 * parser consumed the body, its declared size fits, it is JSON. The rules are `headRefusal()`
 * (unread.ts), the ones adapters ask through `readsBody()`.
 */
export function head(delivery: Delivery, env: Environment): Step<undefined> {
  if (env.state.closing) return shuttingDown(delivery)
  const { method, headers, bodyAlreadyParsed: fix } = delivery.request
  const refusal = headRefusal(env.options, method, headers)
  if (refusal === 'method_not_allowed') return answerError(delivery, refusal, ALLOW_POST)
  // An app misconfiguration, not a bad delivery: say so instead of failing every signature.
  if (fix) return bodyAlreadyParsed(delivery, env, fix)
  if (refusal === 'payload_too_large') return refuse(delivery, env, refusal, { declared: declaredLength(headers) })
  return refusal ? refuse(delivery, env, refusal) : undefined
}
