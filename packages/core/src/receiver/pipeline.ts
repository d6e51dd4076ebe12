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
 * One delivery's run through the stages, and the loop's bookkeeping: the stage running and its input, whether
 * `close()` counts the delivery (first wait to end), whether the outlet has it. Only here is it decided whether
 * anything waits: a buffered delivery through the memory store with synchronous handlers gets no promise. An
 * object, not a closure as Hono's compose: closures cost ~450 bytes a delivery, 13% of what `handle()` allocates.
 */
class Run {
  #index = 0
  #input: unknown = undefined
  #counted = false
  #handedOut = false
  constructor(
    readonly exchange: Exchange,
    readonly env: Environment,
  ) {}

  /** Runs the stages from `#index` until one answers or gives something to wait for. */
  run(): Answer {
    for (; this.#index < STAGES.length; this.#index++) {
      const stage = STAGES[this.#index] as LoopStage
      const work = stage.start(this.exchange, this.env, this.#input)
      if (work === ANSWERED) return this.finish(true)
      if (isThenable(work)) return this.#wait(stage, work)
      const verdict = stage.judge(this.exchange, this.env, work, this.#input, false)
      if (verdict === ANSWERED) return this.finish(true)
      if (verdict instanceof Promise) return this.#then(verdict)
      this.#input = verdict
    }
    throw new Error('The last stage answers every delivery')
  }

  /** Goes on once `pending` settles, counted by `close()` meanwhile: `judging` judges the result, then on from its verdict. */
  #then(pending: PromiseLike<unknown>, judging?: LoopStage): Promise<WebhookResponse> {
    if (!this.#counted) this.env.state.begin()
    this.#counted = true
    return Promise.resolve(pending).then(
      (result) => {
        try {
          const verdict = judging ? judging.judge(this.exchange, this.env, result, this.#input, true) : result
          if (verdict === ANSWERED) return this.finish(true)
          if (verdict instanceof Promise) return this.#then(verdict)
          this.#index++
          this.#input = verdict
          return this.run()
        } catch (error) {
          return this.failed(error)
        }
      },
      (error: unknown) => this.failed(error),
    )
  }

  /**
   * Waits for a stage's work, then has the stage judge it, once; raced against the deadline if the stage keeps one
   * (`atDeadline`). Past it, that answer goes out; the work goes on (counted, kept alive by `waitUntil`), judged later.
   */
  #wait(stage: LoopStage, work: PromiseLike<unknown>): Promise<WebhookResponse> {
    const { atDeadline } = stage
    if (!atDeadline) return this.#then(work, stage)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        try {
          atDeadline(this.exchange, this.env)
        } catch (error) {
          internalError(this.exchange, this.env, error)
        }
        resolve(this.finish(false))
        this.exchange.hooks.waitUntil?.(rest)
      }, this.env.options.deadlineMs)
      const rest = this.#then(
        Promise.resolve(work).finally(() => clearTimeout(timer)),
        stage,
      )
      rest.then(resolve) // after the deadline's answer, resolving again changes nothing
    })
  }

  /** Hands the answered delivery to the outlet, once, and ends its count (`ending`). */
  finish(ending: boolean): WebhookResponse {
    if (ending && this.#counted) this.env.state.end()
    this.#counted &&= !ending
    if (!this.#handedOut && this.env.outlet) handOut(this.env.outlet, this.exchange, this.env.options)
    this.#handedOut = true
    return this.exchange.response
  }

  failed(error: unknown): WebhookResponse {
    internalError(this.exchange, this.env, error)
    return this.finish(true)
  }
}

/** The receiver's pipeline: `handle()` never throws; every outcome is a response. */
export class Pipeline {
  readonly #env: Environment

  constructor(options: ResolvedOptions, registry: Registry, state: Lifecycle) {
    this.#env = environment(options, registry, state)
  }

  handle(request: WebhookRequest, hooks: HandleHooks): Answer {
    const env = this.#env
    const exchange = new Exchange(request, hooks, env.options.logger, env.options.vibeBudget?.budget)
    const run = new Run(exchange, env)
    try {
      exchange.receivedAtMs = env.options.now()
      exchange.observer = env.options.instrumentation?.delivery(request)
      return run.run()
    } catch (error) {
      return run.failed(error)
    }
  }

  /** Writes the count of log lines held back by `logLimit`, if any (on close). */
  flushLogs(): void {
    this.#env.refusals.flush()
  }
}
