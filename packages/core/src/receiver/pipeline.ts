import { isThenable } from '../awaitable.js'
import { answerUnexpected } from './answer.js'
import { Exchange } from './exchange.js'
import { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import { outletOf } from './outlets.js'
import type { Registry } from './registry.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import { ANSWERED, type Environment, inOrder, Later, type PipelineState } from './stage.js'
import { authenticate } from './stages/authenticate.js'
import { dedup } from './stages/dedup.js'
import { handle } from './stages/handle.js'
import { parse } from './stages/parse.js'
import { receive } from './stages/receive.js'
import { settle } from './stages/settle.js'

export type { PipelineState } from './stage.js'

/** A delivery's way through the receiver: each stage judges its own work (stage.ts). */
const STAGES = inOrder(receive, authenticate, parse, dedup, handle, settle)

type Answer = WebhookResponse | Promise<WebhookResponse>

/**
 * Runs the stages from `from`. Whether anything waits is decided here and only here: a buffered
 * delivery through the memory store with synchronous handlers is answered without a promise.
 */
function run(exchange: Exchange, env: Environment, from: number, input: unknown): Answer {
  for (let index = from; index < STAGES.length; index++) {
    const stage = STAGES[index] as (typeof STAGES)[number]
    const work = stage.start(exchange, env, input)
    if (work === ANSWERED) return finish(exchange, env)
    if (isThenable(work)) return waitForWork(exchange, env, index, input, work)
    exchange.waited = false
    const verdict = stage.judge(exchange, env, work, input)
    if (verdict === ANSWERED || verdict instanceof Later || isThenable(verdict))
      return follow(exchange, env, index, input, verdict)
    input = verdict
  }
  throw new Error('The last stage answers every delivery')
}

/** Waits for stage `index`'s work, counting the delivery for `close()`, then has the same stage judge it. */
function waitForWork(
  exchange: Exchange,
  env: Environment,
  index: number,
  input: unknown,
  work: PromiseLike<unknown>,
): Promise<WebhookResponse> {
  count(exchange, env)
  return Promise.resolve(work).then(
    (result) => judgeLater(exchange, env, index, input, result),
    (error) => failed(exchange, env, error),
  )
}

/** Stage `index` judges a result that was waited for, then the stages after it run. */
function judgeLater(exchange: Exchange, env: Environment, index: number, input: unknown, result: unknown): Answer {
  try {
    exchange.waited = true
    const verdict = (STAGES[index] as (typeof STAGES)[number]).judge(exchange, env, result, input)
    return follow(exchange, env, index, input, verdict)
  } catch (error) {
    return failed(exchange, env, error)
  }
}

/** Goes on from stage `index`'s verdict: the answer, the next stage, or a wait for either. */
function follow(exchange: Exchange, env: Environment, index: number, input: unknown, verdict: unknown): Answer {
  if (verdict === ANSWERED) return finish(exchange, env)
  if (verdict instanceof Later) return goOnAfterDeadline(exchange, env, index, input, verdict)
  if (!isThenable(verdict)) return run(exchange, env, index + 1, verdict)
  count(exchange, env)
  return Promise.resolve(verdict).then(
    (value) => {
      try {
        return follow(exchange, env, index, input, value)
      } catch (error) {
        return failed(exchange, env, error)
      }
    },
    (error) => failed(exchange, env, error),
  )
}

/**
 * The answer went out before stage `index`'s work finished (the handlers passed the deadline): the
 * work goes on, counted by `close()` and kept alive by `waitUntil`, and once it settles the same
 * stage judges it and the stages after it run (settling the claim, reporting a failure).
 */
function goOnAfterDeadline(
  exchange: Exchange,
  env: Environment,
  index: number,
  input: unknown,
  late: Later<unknown>,
): WebhookResponse {
  const rest = Promise.resolve(late.work).then((result) => judgeLater(exchange, env, index, input, result))
  env.state.track(rest)
  exchange.hooks.waitUntil?.(rest)
  return finish(exchange, env)
}

function count(exchange: Exchange, env: Environment): void {
  if (exchange.counted) return
  exchange.counted = true
  env.state.begin()
}

function failed(exchange: Exchange, env: Environment, error: unknown): WebhookResponse {
  answerUnexpected(exchange, env, error)
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

  constructor(options: ResolvedOptions, registry: Registry, state: PipelineState) {
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
    const exchange = new Exchange(request, hooks, env.options.logger)
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
