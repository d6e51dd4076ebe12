import type { VerifyResult } from '../../signature/verify.js'
import { refuse } from '../answer.js'
import type { Delivery, Environment, Step } from '../delivery.js'
import { decodeJson } from '../json.js'

/** Takes the verdict on the signature (answering 401 unless it checked out), then decodes the JSON. */
export function parseJson(delivery: Delivery, env: Environment, verified: VerifyResult): Step<unknown> {
  delivery.observer?.verified?.(verified)
  if (!verified.ok) return refuse(delivery, env, 'unauthorized', { reason: verified.reason }, verified.message)
  delivery.signedAt = verified.timestamp
  delivery.secretIndex = verified.secretIndex
  const decoded = delivery.decoded ?? decodeJson(delivery.bytes)
  return decoded.ok ? decoded.value : refuse(delivery, env, 'invalid_json')
}
