import { parseCaptures } from '@ringhook/capture'
import type { WebhookEvent } from '@ringhook/core'
import type { CapturedDelivery } from '@ringhook/core/capture'
import { z } from 'zod'
import type { SimContext } from './context.js'
import type { Deliveries } from './delivery.js'
import { invalid } from './errors.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './http/json-depth.js'
import { parseInput } from './inputs.js'
import type { App, Delivery } from './model.js'

/**
 * The largest body `POST /_sim/captures` takes: 1 MiB, room for any record of a receiver with the
 * default 64 KiB body limit, even one whose body is all escaped control bytes.
 */
export const LOAD_CAPTURES_BODY_LIMIT = 1024 * 1024

/**
 * The body of `POST /_sim/captures`: captured deliveries as JSON Lines (a capture file written by
 * `fileSink` from `@ringhook/capture`, or part of one: the control API takes 1 MiB a call), and the
 * app whose webhook URL and secret deliver them when the simulator has no app of a record's own
 * `app_id`.
 */
export const loadCapturesInput = z.strictObject({
  jsonl: z.string(),
  app_id: z.string().min(1).max(200).optional(),
  wait: z.boolean().optional(),
})

/** The body of `POST /_sim/captures`: `jsonl` (captured deliveries as JSON Lines, at most 1 MiB a call), `app_id` (the app that delivers records whose own app the simulator lacks) and `wait`. */
export type LoadCapturesInput = z.input<typeof loadCapturesInput>

/** What loading captures answers: a delivery for each record sent, and why the others were not. */
export interface LoadCapturesResult {
  /** One per record sent, in the file's order: the record's id and the simulator's delivery. */
  loaded: {
    /** The captured record's id. */
    capture_id: string
    /** The simulator's delivery of its payload. */
    delivery: Delivery
  }[]
  /** Records not sent: no event (refused before it was read as one), a body that is not a JSON object or is nested too deep, a line that is not a record. */
  skipped: {
    /** The captured record's id; `line N` for a line of `jsonl` that is not a record. */
    capture_id: string
    /** Why it was not sent. */
    reason: string
  }[]
}

/**
 * Sends captured deliveries as the service would: each payload as a new delivery of its app (or the
 * one named), signed with that app's secret, through the simulator's faults and retries. The
 * payload is sent as JSON the simulator writes, so its bytes may differ from the captured ones.
 */
export async function loadCaptures(
  ctx: SimContext,
  deliveries: Deliveries,
  raw: LoadCapturesInput,
): Promise<LoadCapturesResult> {
  const input = parseInput(loadCapturesInput, raw)
  const records = parseCaptures(input.jsonl, 'jsonl')
  const [firstBad] = records.skipped
  if (records.length === 0 && firstBad !== undefined)
    throw invalid(`No line is a captured delivery: jsonl:${firstBad.line} is ${firstBad.reason}`)
  const fallback = input.app_id === undefined ? undefined : ctx.state.app(input.app_id)
  const result: LoadCapturesResult = { loaded: [], skipped: [] }
  // A line that is not a record (cut by a crash, edited by hand) is named, and the others still go.
  for (const bad of records.skipped) result.skipped.push({ capture_id: `line ${bad.line}`, reason: bad.reason })
  for (const record of records) {
    const payload = payloadOf(record)
    if (typeof payload === 'string') {
      result.skipped.push({ capture_id: record.id, reason: payload })
      continue
    }
    const app = ctx.state.apps.get(String(payload.app_id)) ?? fallback ?? firstApp(ctx)
    result.loaded.push({ capture_id: record.id, delivery: deliveries.send(app, payload, { captureId: record.id }) })
  }
  if (input.wait) await Promise.all(result.loaded.map(({ delivery }) => deliveries.settled(delivery)))
  return result
}

/** The record's payload, or why it cannot be sent. */
function payloadOf(record: CapturedDelivery): WebhookEvent | string {
  if (record.event === undefined) return 'not an authentic event when captured'
  if (record.request.encoding !== 'utf8') return 'the body is not UTF-8'
  if (nestsDeeperThan(record.request.body, MAX_JSON_DEPTH))
    return `the body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`
  try {
    const payload = JSON.parse(record.request.body)
    if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) return payload as WebhookEvent
  } catch {
    // falls through
  }
  return 'the body is not a JSON object'
}

function firstApp(ctx: SimContext): App {
  for (const app of ctx.state.apps.values()) if (app.webhook_url) return app
  throw invalid('No app with a webhook URL to deliver the captures to: create one, or name one with app_id.')
}
