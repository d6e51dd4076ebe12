import { isThenable } from '../awaitable.js'
import { internalError } from './answer.js'
import { Exchange } from './exchange.js'
import type { Lifecycle } from './lifecycle.js'
import type { ResolvedOptions } from './options.js'
import { handOut } from './outlet.js'
import type { Registry } from './registry.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import { ANSWERED, type Environment, environment, inOrder, type LoopStage } from './stage.js'
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
 * Runs one delivery through the stages. The loop's bookkeeping lives here, in the closure, as Hono's
 * compose keeps its index: the stage running and what it was given, whether `close()` counts the delivery
 * (from its first wait to its end), whether the outlet has it. Whether anything waits is decided here and
 * only here: a buffered delivery through the memory store with synchronous handlers gets no promise.
 */
function deliver(exchange: Exchange, env: Environment): Answer {
  let index = 0
  let input: unknown
  let counted = false
  let handedOut = false

  /** Runs the stages from `index` until one answers or gives something to wait for. */
  function run(): Answer {
    for (; index < STAGES.length; index++) {
      const stage = STAGES[index] as LoopStage
      const work = stage.start(exchange, env, input)
      if (work === ANSWERED) return finish(true)
      if (isThenable(work)) return wait(stage, work)
      const verdict = stage.judge(exchange, env, work, input, false)
      if (verdict === ANSWERED) return finish(true)
      if (verdict instanceof Promise) return count(verdict.then(follow, failed))
      input = verdict
    }
    throw new Error('The last stage answers every delivery')
  }

  /** Goes on after a wait: has `judging` judge the result, then from the verdict, to the answer, another wait, or the next stage. */
  function follow(result: unknown, judging?: LoopStage): Answer {
    try {
      const verdict = judging ? judging.judge(exchange, env, result, input, true) : result
      if (verdict === ANSWERED) return finish(true)
      if (verdict instanceof Promise) return verdict.then(follow, failed)
      index++
      input = verdict
      return run()
    } catch (error) {
      return failed(error)
    }
  }

  /**
   * Waits for a stage's work, then has the stage judge it, once; raced against the deadline if the stage keeps
   * one (`atDeadline`). Past it, that answer goes out; the work goes on, counted by `close()` and kept alive by
   * `waitUntil`, and is judged when it settles.
   */
  function wait(stage: LoopStage, work: PromiseLike<unknown>): Promise<WebhookResponse> {
    const { atDeadline } = stage
    if (!atDeadline) return count(Promise.resolve(work).then((result) => follow(result, stage), failed))
    return count(
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          try {
            atDeadline(exchange, env)
          } catch (error) {
            internalError(exchange, env, error)
          }
          resolve(finish(false))
          exchange.hooks.waitUntil?.(rest)
        }, env.options.deadlineMs)
        const rest = Promise.resolve(work).then((result) => {
          clearTimeout(timer)
          return follow(result, stage)
        }, failed)
        rest.then(resolve) // after the deadline's answer, resolving again changes nothing
      }),
    )
  }

  const count = (answer: Promise<WebhookResponse>): Promise<WebhookResponse> => {
    if (!counted) env.state.begin()
    counted = true
    return answer
  }

  /** Hands the answered delivery to the outlet, once, and ends its count (`ending`). */
  function finish(ending: boolean): WebhookResponse {
    if (ending && counted) {
      counted = false
      env.state.end()
    }
    if (!handedOut && env.outlet) handOut(env.outlet, exchange, env.options)
    handedOut = true
    return exchange.response
  }

  const failed = (error: unknown): WebhookResponse => {
    internalError(exchange, env, error)
    return finish(true)
  }

  try {
    exchange.receivedAtMs = env.options.now()
    exchange.observer = env.options.instrumentation?.delivery(exchange.request)
    return run()
  } catch (error) {
    return failed(error)
  }
}

/** The receiver's pipeline: `handle()` never throws; every outcome is a response. */
export class Pipeline {
  readonly #env: Environment

  constructor(options: ResolvedOptions, registry: Registry, state: Lifecycle) {
    this.#env = environment(options, registry, state)
  }

  handle(request: WebhookRequest, hooks: HandleHooks): Answer {
    const { options } = this.#env
    return deliver(new Exchange(request, hooks, options.logger, options.vibeBudget?.budget), this.#env)
  }

  /** Writes the count of log lines held back by `logLimit`, if any (on close). */
  flushLogs(): void {
    this.#env.refusals.flush()
  }
}
