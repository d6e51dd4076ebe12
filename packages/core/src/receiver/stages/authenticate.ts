import { type Attempt, type Awaitable, attempt, isThenable } from '../../awaitable.js'
import { describe } from '../../errors.js'
import { getHeader } from '../../signature/headers.js'
import { usableSecret, type VerifyResult, verifyNow } from '../../signature/verify.js'
import { answerError, RETRY_SOON, refuse } from '../answer.js'
import type { Exchange } from '../exchange.js'
import { decodeJson } from '../json.js'
import type { Answered, Authentic, Environment, Stage } from '../stage.js'

/** The signature's verdict, or no secret to check it against: the resolver threw, or gave none. */
export type Checked = VerifyResult | { readonly noSecret: Attempt<unknown> }

/**
 * Authenticate: finds the secrets (the configured ones, or the resolver's), then checks the signature
 * headers, timestamp and signature (`verifyNow`, signature/verify.ts; waited for only with Web Crypto or
 * a resolver's promise). Answers 503 `secret_unavailable` and 401 `unauthorized`.
 */
export const authenticate: Stage<Uint8Array, Checked, Authentic> = {
  start(exchange, env, body) {
    const found = env.staticSecrets ?? resolveSecret(exchange, env, body)
    return isThenable(found)
      ? found.then((secrets) => check(exchange, env, body, secrets))
      : check(exchange, env, body, found)
  },

  judge(exchange, env, checked, body) {
    if ('noSecret' in checked) return secretUnavailable(exchange, env, checked.noSecret)
    exchange.observer?.verified?.(checked)
    if (!checked.ok) return refuse(exchange, env, 'unauthorized', { reason: checked.reason }, checked.message)
    exchange.signedAt = checked.timestamp
    exchange.secretIndex = checked.secretIndex
    return body as Authentic
  },
}

/** Asks the resolver, which may pick by the (untrusted) app id: the body is decoded for it, and that decoding kept for parse. */
function resolveSecret(exchange: Exchange, env: Environment, body: Uint8Array): Awaitable<Attempt<unknown>> {
  const decoded = decodeJson(body)
  exchange.json = decoded
  const appId = decoded.ok ? (decoded.value as { app_id?: unknown } | null)?.app_id : undefined
  const { secret } = env.options
  return attempt(() => secret({ appId: typeof appId === 'string' ? appId : undefined }))
}

function check(exchange: Exchange, env: Environment, body: Uint8Array, found: Attempt<unknown>): Awaitable<Checked> {
  if (!found.ok || !usableSecret(found.value)) return { noSecret: found }
  const { options } = env
  const { headers } = exchange.request
  return verifyNow({
    rawBody: body,
    signature: getHeader(headers, options.signatureHeader),
    timestamp: getHeader(headers, options.timestampHeader),
    secret: found.value,
    toleranceSeconds: options.toleranceSeconds,
    now: options.now,
  })
}

/**
 * A resolver that threw or gave no secret: a configuration problem (a variable missing at run time), not a
 * bad delivery. Answered 503 so the service retries once it is fixed; said once per receiver.
 */
function secretUnavailable(exchange: Exchange, env: Environment, found: Attempt<unknown>): Answered {
  if (!env.secretWarned) {
    env.secretWarned = true
    const why = found.ok
      ? 'The secret resolver returned no secret (undefined, empty, or not a string): is RING_WEBHOOK_SECRET, or the variable it reads, set where the app runs?'
      : `The secret resolver threw (${describe(found.error)}): check where it loads the secret from.`
    env.options.logger.warn(
      { code: 'secret_unavailable' },
      `${why} Every delivery is answered 503 secret_unavailable, which the service retries; logged once.`,
    )
  }
  return answerError(exchange, 'secret_unavailable', RETRY_SOON)
}
