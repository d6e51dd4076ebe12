import { dedupKeyFor } from '../../dedup/key.js'
import { describeIssues } from '../../issues.js'
import { parseEvent } from '../../schemas/events.js'
import { refuse } from '../answer.js'
import type { Delivery, Environment, Step } from '../delivery.js'

const NO_FIELDS = Object.freeze({})

/** Checks the decoded JSON against the event's schema, and names the delivery by its dedup key. */
export function checkPayload(delivery: Delivery, env: Environment, json: unknown): Step<undefined> {
  const parsed = parseEvent(json)
  if (!parsed.ok) {
    const issues = describeIssues(parsed.error, '(payload)')
    return refuse(delivery, env, 'invalid_payload', NO_FIELDS, `The payload does not match the schema: ${issues}`)
  }
  delivery.event = parsed.event
  delivery.key = dedupKeyFor(parsed.event, env.options.dedupKey)
  delivery.receivedAtMs = env.options.now()
  return undefined
}
