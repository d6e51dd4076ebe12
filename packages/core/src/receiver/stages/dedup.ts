import { type Attempt, failed, outcome } from '../../awaitable.js'
import type { ClaimResult } from '../../dedup/store.js'
import { RinghookError } from '../../errors.js'
import { answer, answerError, RETRY_SOON, report, shuttingDown } from '../answer.js'
import { waitedFor } from '../exchange.js'
import { rawJsonResponse } from '../response.js'
import type { Admitted, ParsedEvent, Stage } from '../stage.js'

/** Marks a reply replayed to a duplicate delivery. */
const DUPLICATE = Object.freeze({ 'x-ringhook-duplicate': 'true' })
const STORE_FULL =
  'The dedup store is full of deliveries still inside their dedup window: answered 503 so the service retries. ' +
  "Give it more room: createMemoryStore({ maxBytes }) (default 40 MiB), let it shorten its window (whenFull: 'shorten'), " +
  'raise Redis maxmemory, or spread the load over instances sharing @ringhook/redis or @ringhook/postgres.'

/**
 * Dedup: claims the delivery's key. A first delivery goes on; a duplicate gets the stored reply; a failing
 * store follows `onStoreError`. Answers 503 `shutting_down` (closed while the body was read: no claim is
 * taken, so the retry runs in full), 409 `delivery_in_progress`, 503 `store_full`, 503 `store_unavailable`.
 */
export const dedup: Stage<ParsedEvent, Attempt<ClaimResult>, Admitted> = {
  start(exchange, env, event) {
    if (env.state.closing) return shuttingDown(exchange)
    const { observer } = exchange
    observer?.accepted?.(event.event, exchange.key)
    exchange.startedAt = observer ? performance.now() : 0
    try {
      return outcome(env.options.store.claim(exchange.key, env.options.inFlightTtlMs))
    } catch (error) {
      return failed(error)
    }
  },

  judge(exchange, env, claimed, event, waited) {
    exchange.observer?.claimed?.(claimed.ok ? claimed.value.state : 'error', waitedFor(exchange, waited))
    if (!claimed.ok) {
      const cause = claimed.error
      const error = new RinghookError('store_unavailable', 'The dedup store failed to claim', 'store', { cause })
      // Reported first; then `'retry'` answers 503, `'process'` goes on to the handlers unclaimed.
      return report(exchange, env, [error]).then(() =>
        env.options.onStoreError === 'retry'
          ? answerError(exchange, 'store_unavailable', RETRY_SOON)
          : (event as Admitted),
      )
    }
    const result = claimed.value
    if (result.state === 'claimed') {
      exchange.token = result.token
      return event as Admitted
    }
    if (result.state === 'completed') {
      exchange.context.logger.info({}, 'Duplicate delivery: replaying the stored reply')
      return answer(exchange, rawJsonResponse(result.reply.status, result.reply.body, DUPLICATE), 'duplicate')
    }
    if (result.state === 'in_flight') {
      exchange.context.logger.info({}, 'Duplicate of a delivery still in progress')
      return answerError(exchange, 'delivery_in_progress', RETRY_SOON)
    }
    // Full: never "process anyway": a delivery handled without a claim could be handled twice.
    env.refusals.write('warn', 'store_full', { code: 'store_full', delivery_key: exchange.key }, STORE_FULL)
    return answerError(exchange, 'store_full', RETRY_SOON)
  },
}
