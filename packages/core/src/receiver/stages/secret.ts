import { type Attempt, attempt } from '../../awaitable.js'
import type { BodyResult } from '../body.js'
import type { Delivery, Environment, Step } from '../delivery.js'
import { decodeJson } from '../json.js'
import { refuseUnread } from './body.js'

/** Takes the body read whole (or refuses why it was not), then finds the secrets to check it against. */
export function findSecret(delivery: Delivery, env: Environment, body: BodyResult): Step<Attempt<unknown>> {
  if (!body.ok) return refuseUnread(delivery, env, body.code)
  delivery.bytes = body.bytes
  if (env.staticSecrets) return env.staticSecrets
  // Parsed early only for a resolver, which may pick by the (untrusted) app id; reused after verification.
  const decoded = decodeJson(body.bytes)
  delivery.decoded = decoded
  const appId = decoded.ok ? (decoded.value as { app_id?: unknown } | null)?.app_id : undefined
  const { secret } = env.options
  return attempt(() => secret({ appId: typeof appId === 'string' ? appId : undefined }))
}
