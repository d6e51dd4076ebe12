import { ACK_BODY } from '../../ack.js'
import type { StoredReply } from '../../dedup/store.js'
import { RinghookError } from '../../errors.js'
import { describe } from '../answer.js'
import type { Delivery, Environment, Step } from '../delivery.js'
import type { HandlersResult } from '../registry.js'
import { toGestureReply } from '../reply.js'

/** What the handlers earned: the reply to send and store, or every failure to report. */
export type HandlerOutcome = { ok: true; reply: StoredReply } | { ok: false; errors: RinghookError[] }

export const ACK: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })
/** What a run of handlers that acknowledged earns; one object for every such delivery. */
const ACKNOWLEDGED: HandlerOutcome = Object.freeze({ ok: true, reply: ACK })

/**
 * Takes what the handlers returned or threw, and turns it into the reply: a gesture's vibe,
 * checked against the trigger rules, or the acknowledgement.
 */
export function handled(delivery: Delivery, _env: Environment, result: HandlersResult): Step<HandlerOutcome> {
  const outcome: HandlerOutcome = result.ok
    ? toOutcome(delivery, result.value)
    : { ok: false, errors: result.errors.map(handlerFailed) }
  delivery.observer?.handled?.(outcome.ok, performance.now() - delivery.startedAt)
  // Acknowledged at the deadline: the stored reply is the acknowledgement the service already has.
  return delivery.afterReply && outcome.ok ? ACKNOWLEDGED : outcome
}

function toOutcome(delivery: Delivery, value: unknown): HandlerOutcome {
  if (delivery.event.event !== 'gesture') return ACKNOWLEDGED
  const reply = toGestureReply(value)
  if (!reply.ok) return { ok: false, errors: [new RinghookError('handler_error', reply.message, 'reply')] }
  return { ok: true, reply: { status: 200, body: JSON.stringify(reply.reply) } }
}

const handlerFailed = (error: unknown): RinghookError =>
  new RinghookError('handler_error', `A handler failed: ${describe(error)}`, 'handler', { cause: error })
