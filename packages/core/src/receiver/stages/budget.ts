import type { StoredReply } from '../../dedup/store.js'
import type { Delivery, Environment, Step } from '../delivery.js'
import type { ReplyLimits } from '../vibe-budget.js'
import type { HandlerOutcome } from './handled.js'

/** The reply sent in place of a vibe over its user's budget. */
const WITHOUT_VIBE: StoredReply = Object.freeze({ status: 200, body: '{"success":true}' })

/**
 * Spends one of the user's vibes on a gesture reply that carries one, with the receiver's `limits`.
 * It runs once per handled delivery, before the reply is stored: a retry answered from the dedup
 * store replays the stored reply and is never counted again.
 */
export function spendVibe(delivery: Delivery, env: Environment, handled: HandlerOutcome): Step<HandlerOutcome> {
  const limits = env.options.limits
  // Acknowledged at the deadline: no vibe goes out, so none is spent.
  if (!limits || !handled.ok || delivery.afterReply || !carriesVibe(delivery, handled.reply)) return handled
  const { app_id: appId, user_app_id: userAppId } = delivery.event as { app_id: string; user_app_id: string }
  return Promise.resolve()
    .then(() => limits.budget.takeVibe(appId, userAppId))
    .then(
      (taken) => (taken ? counted(limits, handled) : overBudget(limits, handled)),
      (error: unknown) => {
        limits.unchecked(error)
        return handled
      },
    )
}

const carriesVibe = (delivery: Delivery, reply: StoredReply): boolean =>
  delivery.event.event === 'gesture' && reply.body.includes('"vibe"')

function counted(limits: ReplyLimits, handled: HandlerOutcome): HandlerOutcome {
  limits.counted()
  return handled
}

function overBudget(limits: ReplyLimits, handled: HandlerOutcome): HandlerOutcome {
  limits.overBudget()
  return limits.whenSpent === 'send' ? handled : { ok: true, reply: WITHOUT_VIBE }
}
