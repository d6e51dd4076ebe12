import type { Attempt } from '../../awaitable.js'
import { getHeader } from '../../signature/headers.js'
import { usableSecret, type VerifyResult, verifyNow } from '../../signature/verify.js'
import { answerError, describe, RETRY_SOON } from '../answer.js'
import type { Answered, Delivery, Environment, Step } from '../delivery.js'

/**
 * Takes the secrets found, then checks the signature headers, the timestamp and the signature
 * (`verifyNow`, signature/verify.ts). Synchronous with node:crypto; Web Crypto makes it wait.
 */
export function verifySignature(delivery: Delivery, env: Environment, found: Attempt<unknown>): Step<VerifyResult> {
  if (!found.ok || !usableSecret(found.value)) return secretUnavailable(delivery, env, found)
  const { options } = env
  const { headers } = delivery.request
  return verifyNow({
    rawBody: delivery.bytes,
    signature: getHeader(headers, options.signatureHeader),
    timestamp: getHeader(headers, options.timestampHeader),
    secret: found.value,
    toleranceSeconds: options.toleranceSeconds,
    now: options.now,
  })
}

/**
 * A resolver that threw or gave no secret: a configuration problem (a variable missing at run time),
 * not a bad delivery. Answered 503 so the service retries once it is fixed; said once per receiver,
 * since every delivery would repeat it.
 */
function secretUnavailable(delivery: Delivery, env: Environment, found: Attempt<unknown>): Answered {
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
  return answerError(delivery, 'secret_unavailable', RETRY_SOON)
}
