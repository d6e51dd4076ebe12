import { type BodyResult, readBody } from '../body.js'
import type { Delivery, Environment, Step } from '../delivery.js'

/** Reads the body within `maxBodyBytes` and `bodyTimeoutMs`: at once when it is already buffered. */
export function receiveBody(delivery: Delivery, env: Environment): Step<BodyResult> {
  return readBody(delivery.request.rawBody, env.options.maxBodyBytes, env.options.bodyTimeoutMs)
}
