import type { SimContext } from './context.js'
import type { Deliveries } from './delivery.js'
import { parseInput, type ResendFailedInput, resendFailedInput, type WaitInput, waitInput } from './inputs.js'
import type { Delivery } from './model.js'

/** What a resend answers: the new deliveries, each with `resend_of` naming the one it sends again. */
export interface ResendResult {
  /** The new deliveries, in the order sent (none when nothing matched). */
  deliveries: Delivery[]
}

/** Sends one delivery again as a new delivery: same payload, newly signed, retried as the service does. */
export async function resendOne(
  ctx: SimContext,
  deliveries: Deliveries,
  deliveryId: string,
  raw: WaitInput = {},
): Promise<ResendResult> {
  const input = parseInput(waitInput, raw)
  const sent = [deliveries.resend(ctx.state.delivery(deliveryId))]
  return settle(deliveries, sent, input.wait)
}

/** Sends again every delivery that failed at or after `failed_since` (resends of resends included). */
export async function resendFailed(
  ctx: SimContext,
  deliveries: Deliveries,
  raw: ResendFailedInput,
): Promise<ResendResult> {
  const input = parseInput(resendFailedInput, raw)
  const since = Date.parse(input.failed_since)
  const failed = [...ctx.state.deliveries.values()].filter(
    (delivery) => delivery.status === 'failed' && Date.parse(delivery.settled_at ?? '') >= since,
  )
  return settle(
    deliveries,
    failed.map((delivery) => deliveries.resend(delivery)),
    input.wait,
  )
}

async function settle(deliveries: Deliveries, sent: Delivery[], wait: boolean | undefined): Promise<ResendResult> {
  if (wait) await Promise.all(sent.map((delivery) => deliveries.settled(delivery)))
  return { deliveries: sent }
}
