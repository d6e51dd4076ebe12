import type { EventName } from '@ringhook/core'
import { describeIssues, EVENT_NAMES, eventSchemas, isKnownEventName } from '@ringhook/core/api'
import { EVENT_NOTES } from '@ringhook/core/internal'
import type { SimContext } from './context.js'
import type { Deliveries } from './delivery.js'
import { invalid } from './errors.js'
import { parseInput, type SendEventInput, sendEventInput } from './inputs.js'
import type { Delivery } from './model.js'
import { webhookPayload } from './payloads.js'

// What every webhook carries: the name and the install's fields, never the caller's.
const ENVELOPE: ReadonlySet<string> = new Set(['event', 'user_app_id', 'external_user_id', 'app_id', 'timestamp'])

/** The webhook `sim.sendEvent` sent. */
export interface SendEventResult {
  /** Its delivery. */
  delivery: Delivery
}

/**
 * Sends any documented event to an install's app as the service would, its own fields the sample
 * of core's list of events unless `fields` sets them. Nothing else changes: an event the simulated
 * world follows (a gesture, a lifecycle change, an answer) has its own action, which keeps the
 * world in step; this one is for the events the world does not model, and for sending any as is.
 */
export async function sendEvent(
  ctx: SimContext,
  deliveries: Deliveries,
  userAppId: string,
  raw: SendEventInput,
): Promise<SendEventResult> {
  const input = parseInput(sendEventInput, raw)
  const name = input.event
  if (!isKnownEventName(name)) throw invalid(`event: must be one of ${EVENT_NAMES.join(', ')}.`)
  const envelope = Object.keys(input.fields ?? {}).filter((field) => ENVELOPE.has(field))
  if (envelope.length > 0) throw invalid(`fields: ${envelope.join(', ')} come from the install, not from fields.`)
  const install = ctx.state.install(userAppId)
  const app = ctx.state.app(install.app_id)
  const payload = webhookPayload(ctx, install, name, ownFields(name, input.fields ?? {}))
  const parsed = eventSchemas[name].safeParse(payload)
  if (!parsed.success) throw invalid(`fields: ${describeIssues(parsed.error)}`)
  const delivery = deliveries.send(app, payload)
  if (input.wait) await deliveries.settled(delivery)
  return { delivery }
}

/** The sample's own fields with `fields` over them (`data` merged one level down). */
function ownFields(name: EventName, fields: Record<string, unknown>) {
  const { data, ...top } = EVENT_NOTES[name].sample as { data: object }
  const given = fields.data
  const merged = typeof given === 'object' && given !== null ? { ...data, ...given } : (given ?? data)
  return { ...top, ...fields, data: merged } as never
}
