import { createHmac, timingSafeEqual } from 'node:crypto'
import { SECRET } from './fixtures.js'
import { deliveryKey, type HandEvent, isValidEvent, type SeenDeliveries } from './hand/checks.js'

const TOLERANCE_SECONDS = 300

/**
 * What a user writes by hand from the service's docs: HMAC-SHA256 over `${timestamp}.${body}`
 * with node:crypto, a constant-time comparison, the 300 s timestamp window, then JSON.parse.
 * Returns the payload, or undefined when the request is not authentic.
 */
export function handRolledVerify(
  body: Buffer,
  signature: string | string[] | undefined,
  timestamp: string | string[] | undefined,
): unknown {
  if (!isAuthentic(body, signature, timestamp)) return undefined
  return JSON.parse(body.toString('utf8'))
}

/** The same checks without the JSON.parse: the like-for-like reference for a bare verify function. */
export function isAuthentic(
  body: Buffer,
  signature: string | string[] | undefined,
  timestamp: string | string[] | undefined,
): boolean {
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !signature.startsWith('sha256=')) return false
  const sentAt = Number(timestamp)
  if (!Number.isInteger(sentAt) || Math.abs(Date.now() / 1000 - sentAt) > TOLERANCE_SECONDS) return false
  const expected = createHmac('sha256', SECRET).update(`${timestamp}.`).update(body).digest()
  const given = Buffer.from(signature.slice(7), 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Everything the spec asks of a receiver, by hand: verify (as above), parse, check the payload's
 * fields, skip a delivery seen before (acknowledged, not handled again), handle, and say which
 * status to answer: 401 not authentic, 400 not a valid payload, 200 handled or a duplicate.
 * What every hand-rolled HTTP route of the bench does, so ringhook is compared with a route that
 * does the required work (bench/README.md).
 */
export function handRolledReceive(
  body: Buffer,
  signature: string | string[] | undefined,
  timestamp: string | string[] | undefined,
  seen: SeenDeliveries,
  handle: (event: HandEvent) => void,
): 200 | 400 | 401 {
  if (!isAuthentic(body, signature, timestamp)) return 401
  let event: unknown
  try {
    event = JSON.parse(body.toString('utf8'))
  } catch {
    return 400
  }
  if (!isValidEvent(event)) return 400
  if (seen.firstTime(deliveryKey(event))) handle(event)
  return 200
}
