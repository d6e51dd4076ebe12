import { ACK_BODY } from '../../ack.js'
import type { StoredReply } from '../../dedup/store.js'
import { describe, RinghookError } from '../../errors.js'
import { answer, answerError } from '../answer.js'
import type { HandlersResult } from '../registry.js'
import { toGestureReply } from '../reply.js'
import { rawJsonResponse } from '../response.js'
import type { Admitted, HandlerOutcome, Stage } from '../stage.js'

const ACK: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })
/** What a run of handlers that acknowledged earns; one object for every such delivery. */
const ACKNOWLEDGED: HandlerOutcome = Object.freeze({ ok: true, reply: ACK })

/**
 * Handle: runs the event's handlers (inside the observer's `runHandlers`, if any), which the loop races
 * against the deadline, and turns what they returned or threw into the reply: a gesture's vibe, checked
 * against the trigger rules, or the acknowledgement. Past the deadline: 2xx (`acknowledge`) or 503 `deadline_exceeded`.
 */
export const handle: Stage<Admitted, HandlersResult, HandlerOutcome> = {
  start(exchange, env, event) {
    const { observer, context } = exchange
    const { registry } = env
    exchange.startedAt = observer ? performance.now() : 0
    return observer?.runHandlers
      ? observer.runHandlers(() => registry.run(event, context))
      : registry.run(event, context)
  },

  judge(exchange, env, ran, event) {
    const outcome: HandlerOutcome = ran.ok
      ? toOutcome(event.event, ran.value)
      : { ok: false, errors: ran.errors.map(handlerFailed) }
    exchange.observer?.handled?.(outcome.ok, performance.now() - exchange.startedAt)
    // Acknowledged at the deadline: the stored reply is the acknowledgement the service already has,
    // and no vibe went out, so none is spent.
    if (exchange.afterReply && outcome.ok) return ACKNOWLEDGED
    const { vibeBudget } = env.options
    return vibeBudget ? vibeBudget.spend(exchange.event, outcome) : outcome
  },

  /** The deadline's answer, 2xx (`acknowledge`) or 503 (`retry`); the handlers still running are told through their signal. */
  atDeadline(exchange, env) {
    const { deadlineMs, onDeadline } = env.options
    exchange.context.abort(new RinghookError('deadline_exceeded', 'The receiver deadline passed', 'handler'))
    const acknowledge = onDeadline === 'acknowledge'
    exchange.afterReply = acknowledge
    exchange.observer?.deadline?.(onDeadline)
    exchange.context.logger.warn(
      { deadline_ms: deadlineMs },
      acknowledge
        ? 'Handlers passed the deadline: acknowledged, they keep running'
        : 'Handlers passed the deadline: answered 503 so the service retries',
    )
    if (acknowledge) answer(exchange, rawJsonResponse(ACK.status, ACK.body), 'ok')
    else answerError(exchange, 'deadline_exceeded')
  },
}

function toOutcome(name: string, value: unknown): HandlerOutcome {
  if (name !== 'gesture') return ACKNOWLEDGED
  const reply = toGestureReply(value)
  if (!reply.ok) return { ok: false, errors: [new RinghookError('handler_error', reply.message, 'reply')] }
  return { ok: true, reply: { status: 200, body: JSON.stringify(reply.reply) } }
}

const handlerFailed = (error: unknown): RinghookError =>
  new RinghookError('handler_error', `A handler failed: ${describe(error)}`, 'handler', { cause: error })
