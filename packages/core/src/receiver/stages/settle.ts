import { type Attempt, failed, outcome } from '../../awaitable.js'
import type { Delivery, Environment, Step } from '../delivery.js'
import type { HandlerOutcome } from './handled.js'

/** Completes the dedup claim with the reply after a success, releases it after a failure (so the retry runs). */
export function settle(delivery: Delivery, env: Environment, handled: HandlerOutcome): Step<Attempt<void> | undefined> {
  delivery.handled = handled
  const { token, key, observer } = delivery
  if (token === undefined) return undefined
  delivery.startedAt = observer ? performance.now() : 0
  const { store, completedTtlMs } = env.options
  try {
    return outcome(handled.ok ? store.complete(key, token, handled.reply, completedTtlMs) : store.release(key, token))
  } catch (error) {
    return failed(error)
  }
}
