import { isThenable } from '../../awaitable.js'
import { RinghookError } from '../../errors.js'
import { answer, answerError } from '../answer.js'
import type { Answered, Delivery, Environment, Step } from '../delivery.js'
import type { HandlersResult } from '../registry.js'
import { rawJsonResponse } from '../response.js'
import { ACK } from './handled.js'

/** Runs the event's handlers (inside the observer's `runHandlers`, when it has one) against the deadline. */
export function dispatch(delivery: Delivery, env: Environment): Step<HandlersResult> {
  const { observer, event, context } = delivery
  const { registry } = env
  delivery.startedAt = observer ? performance.now() : 0
  const ran = observer?.runHandlers
    ? observer.runHandlers(() => registry.run(event, context))
    : registry.run(event, context)
  // Not whether the pipeline waits (the runner decides that) but whether a deadline is needed:
  // handlers that returned without a promise are done, and no timer is set.
  return isThenable(ran) ? raceDeadline(delivery, env, ran) : ran
}

/**
 * The handlers' result, or at `deadlineMs` the deadline's answer: 2xx (`acknowledge`) or 503
 * (`retry`). Their result then still runs the stages after this one, to settle the claim and
 * report a failure, as work `close()` and Workers' `waitUntil` wait for.
 */
async function raceDeadline(
  delivery: Delivery,
  env: Environment,
  work: PromiseLike<HandlersResult>,
): Promise<HandlersResult | Answered> {
  const { deadlineMs, onDeadline } = env.options
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(resolve, deadlineMs, 'deadline')
  })
  const first = await Promise.race([work, deadline])
  clearTimeout(timer)
  if (first !== 'deadline') return first

  delivery.context.abort(new RinghookError('deadline_exceeded', 'The receiver deadline passed', 'handler'))
  const acknowledge = onDeadline === 'acknowledge'
  delivery.afterReply = acknowledge
  delivery.observer?.deadline?.(onDeadline)
  delivery.context.logger.warn(
    { deadline_ms: deadlineMs },
    acknowledge
      ? 'Handlers passed the deadline: acknowledged, they keep running'
      : 'Handlers passed the deadline: answered 503 so the service retries',
  )
  const finish = Promise.resolve(work).then((result) => env.runAfter(delivery, dispatch, result))
  env.state.track(finish)
  delivery.hooks.waitUntil?.(finish)
  if (!acknowledge) return answerError(delivery, 'deadline_exceeded')
  return answer(delivery, rawJsonResponse(ACK.status, ACK.body), 'ok')
}
