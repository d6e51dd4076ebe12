import { type Attempt, failed, outcome } from '../../awaitable.js'
import type { ClaimResult } from '../../dedup/store.js'
import { shuttingDown } from '../answer.js'
import type { Delivery, Environment, Step } from '../delivery.js'

/** Claims the delivery's dedup key in the store; the store's failure is a value, for `admit`. */
export function claim(delivery: Delivery, env: Environment): Step<Attempt<ClaimResult>> {
  // Closed while this body was read: no claim is taken, so the service's retry is processed in full.
  if (env.state.closing) return shuttingDown(delivery)
  const { observer } = delivery
  observer?.accepted?.(delivery.event.event, delivery.key)
  delivery.startedAt = observer ? performance.now() : 0
  try {
    return outcome(env.options.store.claim(delivery.key, env.options.inFlightTtlMs))
  } catch (error) {
    return failed(error)
  }
}
