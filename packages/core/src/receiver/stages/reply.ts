import type { Attempt } from '../../awaitable.js'
import { RinghookError } from '../../errors.js'
import { answer, answerError } from '../answer.js'
import { type Answered, type Delivery, type Environment, type Step, waitedFor } from '../delivery.js'
import { reportAll } from '../report.js'
import { rawJsonResponse } from '../response.js'
import type { HandlerOutcome } from './handled.js'

/**
 * Takes how settling the claim went, and answers: the reply when the handlers succeeded, 500
 * `handler_error` when one failed, after reporting to `onError` (the store's failure first).
 */
export function reply(delivery: Delivery, env: Environment, settled: Attempt<void> | undefined): Step<never> {
  const handled = delivery.handled as HandlerOutcome
  if (settled) delivery.observer?.settled?.(handled.ok ? 'complete' : 'release', settled.ok, waitedFor(delivery))
  if (handled.ok && (settled === undefined || settled.ok)) return answerReply(delivery, handled)
  const failures: RinghookError[] = []
  if (settled && !settled.ok) {
    const cause = settled.error
    failures.push(
      new RinghookError('store_unavailable', 'The dedup store failed to settle a claim', 'store', { cause }),
    )
  }
  if (!handled.ok) for (const error of handled.errors) failures.push(relabel(delivery, error))
  return reportAll(delivery, env, failures).then(() => answerReply(delivery, handled))
}

function answerReply(delivery: Delivery, handled: HandlerOutcome): Answered {
  if (!handled.ok) return answerError(delivery, 'handler_error')
  return answer(delivery, rawJsonResponse(handled.reply.status, handled.reply.body), 'ok')
}

/** A failure after the deadline's acknowledgement went out is reported as such. */
const relabel = (delivery: Delivery, error: RinghookError): RinghookError =>
  delivery.afterReply ? new RinghookError(error.code, error.message, 'after_reply', { cause: error.cause }) : error
