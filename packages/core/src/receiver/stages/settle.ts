import { type Attempt, failed, outcome } from '../../awaitable.js'
import { RinghookError } from '../../errors.js'
import { answer, answerError, report } from '../answer.js'
import { type Exchange, waitedFor } from '../exchange.js'
import { rawJsonResponse } from '../response.js'
import type { Answered, HandlerOutcome, Stage } from '../stage.js'

/**
 * Settle: completes the claim with the reply, or releases it after a failure (so the retry runs the handlers
 * again), then answers: the reply, or 500 `handler_error` once every failure went to `onError` (the store's first).
 */
export const settle: Stage<HandlerOutcome, Attempt<void> | undefined, never> = {
  start(exchange, env, handled) {
    const { token, key, observer } = exchange
    if (token === undefined) return undefined
    exchange.startedAt = observer ? performance.now() : 0
    const { store, completedTtlMs } = env.options
    try {
      return outcome(handled.ok ? store.complete(key, token, handled.reply, completedTtlMs) : store.release(key, token))
    } catch (error) {
      return failed(error)
    }
  },

  judge(exchange, env, settled, handled, waited) {
    if (settled)
      exchange.observer?.settled?.(handled.ok ? 'complete' : 'release', settled.ok, waitedFor(exchange, waited))
    if (handled.ok && (settled === undefined || settled.ok)) return answerReply(exchange, handled)
    const failures: RinghookError[] = []
    if (settled && !settled.ok) {
      const cause = settled.error
      failures.push(
        new RinghookError('store_unavailable', 'The dedup store failed to settle a claim', 'store', { cause }),
      )
    }
    if (!handled.ok) for (const error of handled.errors) failures.push(relabel(exchange, error))
    return report(exchange, env, failures).then(() => answerReply(exchange, handled))
  },
}

function answerReply(exchange: Exchange, handled: HandlerOutcome): Answered {
  if (!handled.ok) return answerError(exchange, 'handler_error')
  return answer(exchange, rawJsonResponse(handled.reply.status, handled.reply.body), 'ok')
}

/** A failure after the deadline's acknowledgement went out is reported as such. */
const relabel = (exchange: Exchange, error: RinghookError): RinghookError =>
  exchange.afterReply ? new RinghookError(error.code, error.message, 'after_reply', { cause: error.cause }) : error
