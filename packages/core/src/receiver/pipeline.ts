import { isThenable } from '../awaitable.js'
import { describe } from '../errors.js'
import { Exchange } from './exchange.js'
import type { Lifecycle } from './lifecycle.js'
import { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import { outletOf } from './outlet.js'
import type { Registry } from './registry.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import { errorResponse, type WebhookResponse } from './response.js'
import { ANSWERED, type Environment, inOrder, Later, type LoopStage } from './stage.js'
import { authenticate } from './stages/authenticate.js'
import { dedup } from './stages/dedup.js'
import { handle } from './stages/handle.js'
import { parse } from './stages/parse.js'
import { receive } from './stages/receive.js'
import { settle } from './stages/settle.js'

/** A delivery's way through the receiver: each stage judges its own work (stage.ts). */
const STAGES = inOrder(receive, authenticate, parse, dedup, handle, settle)

type Answer = WebhookResponse | Promise<WebhookResponse>

/**
 * Runs the stages from `index`. Whether anything waits is decided here and only here: a buffered
 * delivery through the memory store with synchronous handlers is answered without a promise.
 */
function run(exchange: Exchange, env: Environment, index: number, input: unknown): Answer {
  for (; index < STAGES.length; index++) {
    const stage = STAGES[index] as LoopStage
    exchange.stage = index
    exchange.input = input
    const work = stage.start(exchange, env, input)
    if (work === ANSWERED) return finish(exchange, env)
    if (isThenable(work)) return wait(exchange, env, work, true)
    exchange.waited = false
    const verdict = stage.judge(exchange, env, work, input)
    if (verdict === ANSWERED) return finish(exchange, env)
    if (verdict instanceof Promise) return wait(exchange, env, verdict, false)
    input = verdict
  }
  throw new Error('The last stage answers every delivery')
}

/**
 * Waits for the stage's work, then has the same stage judge it (`judge`), or for its verdict, then
 * goes on from it; the delivery is counted for `close()` meanwhile.
 */
function wait(
  exchange: Exchange,
  env: Environment,
  pending: PromiseLike<unknown>,
  judge: boolean,
): Promise<WebhookResponse> {
  if (!exchange.counted) {
    exchange.counted = true
    env.state.begin()
  }
  return Promise.resolve(pending).then(
    (value) => {
      try {
        if (!judge) return follow(exchange, env, value)
        exchange.waited = true
        const verdict = (STAGES[exchange.stage] as LoopStage).judge(exchange, env, value, exchange.input)
        // Only work that was waited for can be judged Later (the deadline passed while it ran).
        if (verdict instanceof Later) return goOnAfterDeadline(exchange, env, verdict.work)
        return follow(exchange, env, verdict)
      } catch (error) {
        return failed(exchange, env, error)
      }
    },
    (error) => failed(exchange, env, error),
  )
}

/** Goes on from the stage's verdict: the answer, a wait for it, or the stages after it. */
function follow(exchange: Exchange, env: Environment, verdict: unknown): Answer {
  if (verdict === ANSWERED) return finish(exchange, env)
  if (verdict instanceof Promise) return wait(exchange, env, verdict, false)
  return run(exchange, env, exchange.stage + 1, verdict)
}

/**
 * The answer went out before the stage's work finished (the handlers passed the deadline): the work goes on,
 * counted by `close()` and kept alive by `waitUntil`, then the same stage judges it and the rest run.
 */
function goOnAfterDeadline(exchange: Exchange, env: Environment, work: PromiseLike<unknown>): WebhookResponse {
  // Held across the hand-over: `finish` ends the delivery's count before `wait` counts it again, and a
  // close() already waiting must not see nothing running in between and resolve.
  env.state.begin()
  const answer = finish(exchange, env)
  // `wait` counts the delivery again for `close()` until the rest finishes: tracking it too would count it twice.
  const rest = wait(exchange, env, work, true)
  env.state.end()
  exchange.hooks.waitUntil?.(rest)
  return answer
}

/** A failure of the pipeline itself (a bug, a throwing observer or logger): answered 500, so the service retries. */
function failed(exchange: Exchange, env: Environment, error: unknown): WebhookResponse {
  exchange.response = errorResponse('internal_error')
  exchange.outcome = 'internal_error'
  try {
    env.options.logger.error(
      { code: 'internal_error', err: describe(error) },
      'Unexpected failure in the webhook pipeline (not in a handler): answered 500 internal_error, so the service retries',
    )
  } catch {
    // The logger is what failed: the answer above stands.
  }
  return finish(exchange, env)
}

/** Ends the delivery's count and hands it to the outlet, once. Past this point a failure is ignored. */
function finish(exchange: Exchange, env: Environment): WebhookResponse {
  if (exchange.counted) {
    exchange.counted = false
    env.state.end()
  }
  const { outlet } = env
  if (!exchange.ended && outlet) {
    exchange.ended = true
    try {
      outlet.answered(exchange, env.options)
    } catch {
      // What listens must not turn a delivery's answer into an exception.
    }
  }
  return exchange.response
}

/** The receiver's pipeline: `handle()` never throws; every outcome is a response. */
export class Pipeline {
  readonly #env: Environment

  constructor(options: ResolvedOptions, registry: Registry, state: Lifecycle) {
    this.#env = {
      options,
      registry,
      state,
      refusals: new LimitedLog(options.logger, options.logLimit, options.now),
      staticSecrets: options.staticSecrets ? Object.freeze({ ok: true, value: options.staticSecrets }) : undefined,
      outlet: outletOf(options),
      secretWarned: false,
    }
  }

  handle(request: WebhookRequest, hooks: HandleHooks): Answer {
    const env = this.#env
    const exchange = new Exchange(request, hooks, env.options.logger, env.options.limits?.budget)
    try {
      exchange.receivedAtMs = env.options.now()
      exchange.observer = env.options.instrumentation?.delivery(request)
      return run(exchange, env, 0, undefined)
    } catch (error) {
      return failed(exchange, env, error)
    }
  }

  /** Writes the count of log lines held back by `logLimit`, if any (on close). */
  flushLogs(): void {
    this.#env.refusals.flush()
  }
}
