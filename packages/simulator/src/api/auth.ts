import type { IncomingHttpHeaders } from 'node:http'
import type { SimContext } from '../context.js'
import { SimulatorError } from '../errors.js'
import type { Key } from '../model.js'

/** The caller's key from `Authorization: Bearer <key>`; 401 when missing or unknown. */
export function authenticate(ctx: SimContext, headers: IncomingHttpHeaders): Key {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  if (!match) {
    throw new SimulatorError(401, 'unauthorized', 'Send the API key as "Authorization: Bearer <API_KEY>".', {
      'www-authenticate': 'Bearer',
    })
  }
  const key = ctx.state.keyByToken(match[1] as string)
  if (!key) throw new SimulatorError(401, 'unauthorized', 'Unknown API key.', { 'www-authenticate': 'Bearer' })
  return key
}

/** Counts one request against the key's 100-per-60-s limit (every endpoint); 429 with Retry-After. */
export function countRequest(ctx: SimContext, key: Key): void {
  const taken = ctx.requestLimit.take(key.id)
  if (taken.ok) return
  const { limit, window_ms } = ctx.settings.rate_limits.requests_per_key
  const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000))
  throw new SimulatorError(
    429,
    'rate_limited',
    `This API key made ${limit} requests in the last ${window_ms / 1000} s; retry in ${seconds} s.`,
    { 'retry-after': String(seconds) },
  )
}
