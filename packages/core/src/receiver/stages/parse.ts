import { dedupKeyFor } from '../../dedup/key.js'
import { describeIssues } from '../../issues.js'
import { parseEvent } from '../../schemas/events.js'
import { refuse } from '../answer.js'
import { type DecodedJson, decodeJson } from '../json.js'
import type { Authentic, ParsedEvent, Stage } from '../stage.js'

const NO_FIELDS = Object.freeze({})

/**
 * Parse: decodes the authentic body as JSON (once: a resolver may have had it decoded), checks it
 * against the event's schema, and names the delivery by its dedup key.
 * Answers 400 `invalid_json` and 400 `invalid_payload`.
 */
export const parse: Stage<Authentic, DecodedJson, ParsedEvent> = {
  start: (exchange, _env, body) => exchange.json ?? decodeJson(body),

  judge(exchange, env, decoded) {
    if (!decoded.ok) return refuse(exchange, env, 'invalid_json')
    const parsed = parseEvent(decoded.value)
    if (!parsed.ok) {
      const issues = describeIssues(parsed.error, '(payload)')
      return refuse(exchange, env, 'invalid_payload', NO_FIELDS, `The payload does not match the schema: ${issues}`)
    }
    exchange.event = parsed.event
    exchange.key = dedupKeyFor(parsed.event, env.options.dedupKey)
    return parsed.event
  },
}
