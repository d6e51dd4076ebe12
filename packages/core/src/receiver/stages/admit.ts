import type { Attempt } from '../../awaitable.js'
import type { ClaimResult } from '../../dedup/store.js'
import { RinghookError } from '../../errors.js'
import { answer, answerError, RETRY_SOON } from '../answer.js'
import { type Answered, type Delivery, type Environment, type Step, waitedFor } from '../delivery.js'
import { report } from '../report.js'
import { rawJsonResponse } from '../response.js'

/** Marks a reply replayed to a duplicate delivery. */
export const DUPLICATE_HEADER = 'x-ringhook-duplicate'
const DUPLICATE = Object.freeze({ [DUPLICATE_HEADER]: 'true' })
const STORE_FULL =
  'The dedup store is full of deliveries still inside their dedup window: answered 503 so the service retries. ' +
  "Give it more room: createMemoryStore({ maxBytes }) (default 40 MiB), let it shorten its window (whenFull: 'shorten'), " +
  'raise Redis maxmemory, or spread the load over instances sharing @ringhook/redis or @ringhook/postgres.'

/**
 * Takes the store's answer to the claim: a first delivery goes on to its handlers; a duplicate gets
 * the stored reply, a copy still running 409, a full store 503; a failing store follows `onStoreError`.
 */
export function admit(delivery: Delivery, env: Environment, claimed: Attempt<ClaimResult>): Step<undefined> {
  delivery.observer?.claimed?.(claimed.ok ? claimed.value.state : 'error', waitedFor(delivery))
  if (!claimed.ok) return storeFailed(delivery, env, claimed.error)
  const result = claimed.value
  if (result.state === 'claimed') {
    delivery.token = result.token
    return undefined
  }
  if (result.state === 'completed') {
    delivery.context.logger.info({}, 'Duplicate delivery: replaying the stored reply')
    return answer(delivery, rawJsonResponse(result.reply.status, result.reply.body, DUPLICATE), 'duplicate')
  }
  if (result.state === 'in_flight') {
    delivery.context.logger.info({}, 'Duplicate of a delivery still in progress')
    return answerError(delivery, 'delivery_in_progress', RETRY_SOON)
  }
  // Full: never "process anyway": a delivery handled without a claim could be handled twice.
  env.refusals.write('warn', 'store_full', { code: 'store_full', delivery_key: delivery.key }, STORE_FULL)
  return answerError(delivery, 'store_full', RETRY_SOON)
}

/** Reports the store's failure, then answers 503 (`'retry'`) or goes on to the handlers unclaimed (`'process'`). */
function storeFailed(delivery: Delivery, env: Environment, cause: unknown): Promise<undefined | Answered> {
  const error = new RinghookError('store_unavailable', 'The dedup store failed to claim', 'store', { cause })
  return report(delivery, env, error).then(() =>
    env.options.onStoreError === 'retry' ? answerError(delivery, 'store_unavailable', RETRY_SOON) : undefined,
  )
}
