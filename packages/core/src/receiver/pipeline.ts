import { isThenable } from '../awaitable.js'
import { type Recorder, TAKE } from '../capture/recorder.js'
import { answerUnexpected } from './answer.js'
import { ANSWERED, Delivery, type Environment, type PipelineState, type Stage } from './delivery.js'
import { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import type { Registry } from './registry.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import { admit } from './stages/admit.js'
import { receiveBody } from './stages/body.js'
import { spendVibe } from './stages/budget.js'
import { claim } from './stages/dedup.js'
import { dispatch } from './stages/dispatch.js'
import { handled } from './stages/handled.js'
import { head } from './stages/head.js'
import { parseJson } from './stages/json.js'
import { checkPayload } from './stages/payload.js'
import { reply } from './stages/reply.js'
import { findSecret } from './stages/secret.js'
import { settle } from './stages/settle.js'
import { verifySignature } from './stages/signature.js'

export type { PipelineState } from './delivery.js'

/**
 * A delivery's way through the receiver, in order. Each stage gets the delivery, the receiver's
 * environment and what the stage before it gave; it gives the next stage its input, or records the
 * answer and returns `ANSWERED`. A stage that has to wait returns a promise.
 */
const STAGES: readonly Stage[] = [
  head, // receiver open, method, size declared, content type (unread.ts)
  receiveBody, // size while reading, read time
  findSecret, // the secret, or the resolver's
  verifySignature, // signature headers, timestamp, signature
  parseJson, // JSON
  checkPayload, // payload schema, dedup key
  claim, // dedup: claim the key
  admit, // dedup: first delivery, duplicate, copy in progress, store full or failing
  dispatch, // handlers, against the deadline
  handled, // their reply, checked
  spendVibe, // its vibe counted against the user's budget (option `limits`)
  settle, // complete or release the claim
  reply, // answer, after reporting failures
]

/**
 * Runs the stages from `from`. Whether a stage waited is decided here and only here: a buffered
 * delivery through the memory store with synchronous handlers is answered without a promise.
 */
function run(
  delivery: Delivery,
  env: Environment,
  from: number,
  input: unknown,
): WebhookResponse | Promise<WebhookResponse> {
  let value = input
  for (let index = from; index < STAGES.length; index++) {
    const output = (STAGES[index] as Stage)(delivery, env, value as never)
    if (output === ANSWERED) return finish(delivery, env)
    if (isThenable(output)) return wait(delivery, env, index + 1, output)
    value = output
    delivery.waited = false
  }
  throw new Error('The last stage answers every delivery')
}

/** Waits for a stage, counting the delivery for `close()`, then runs the rest in the same promise job. */
function wait(
  delivery: Delivery,
  env: Environment,
  next: number,
  pending: PromiseLike<unknown>,
): Promise<WebhookResponse> {
  if (!delivery.counted) {
    delivery.counted = true
    env.state.begin()
  }
  return Promise.resolve(pending).then(
    (value) => resume(delivery, env, next, value),
    (error) => failed(delivery, env, error),
  )
}

function resume(
  delivery: Delivery,
  env: Environment,
  next: number,
  value: unknown,
): WebhookResponse | Promise<WebhookResponse> {
  try {
    if (value === ANSWERED) return finish(delivery, env)
    delivery.waited = true
    return run(delivery, env, next, value)
  } catch (error) {
    return failed(delivery, env, error)
  }
}

function failed(delivery: Delivery, env: Environment, error: unknown): WebhookResponse {
  answerUnexpected(delivery, env, error)
  return finish(delivery, env)
}

/**
 * Ends the delivery's count, tells the observer the answer and hands the delivery to the capture,
 * once. Past this point its failure is ignored.
 */
function finish(delivery: Delivery, env: Environment): WebhookResponse {
  if (delivery.counted) {
    delivery.counted = false
    env.state.end()
  }
  const { observer, response } = delivery
  if (delivery.ended) return response as WebhookResponse
  delivery.ended = true
  if (observer) {
    try {
      observer.end?.((response as WebhookResponse).status, delivery.outcome)
    } catch {
      // An instrumentation bug must not turn a delivery's answer into an exception.
    }
  }
  const { capture } = env
  if (capture) {
    try {
      capture[TAKE](delivery, delivery.arrivedAtMs, env.options.signatureHeader)
    } catch {
      // Only queued here, written later; a failure of its own must not reach the answer either.
    }
  }
  return response as WebhookResponse
}

/** The receiver's pipeline: `handle()` never throws; every outcome is a response. */
export class Pipeline {
  readonly #env: Environment

  constructor(options: ResolvedOptions, registry: Registry, state: PipelineState) {
    const staticSecrets = options.staticSecrets
      ? Object.freeze({ ok: true as const, value: options.staticSecrets })
      : undefined
    const env: Environment = {
      options,
      registry,
      state,
      refusals: new LimitedLog(options.logger, options.logLimit, options.now),
      staticSecrets,
      capture: options.capture as Recorder | undefined,
      secretWarned: false,
      runAfter: (delivery, stage, input) => run(delivery, env, STAGES.indexOf(stage) + 1, input),
    }
    this.#env = env
  }

  handle(request: WebhookRequest, hooks: HandleHooks): WebhookResponse | Promise<WebhookResponse> {
    const env = this.#env
    const delivery = new Delivery(request, hooks, env.options.logger)
    delivery.budget = env.options.limits?.budget
    if (env.capture) delivery.arrivedAtMs = env.options.now()
    try {
      delivery.observer = env.options.instrumentation?.delivery(request)
      return run(delivery, env, 0, undefined)
    } catch (error) {
      return failed(delivery, env, error)
    }
  }

  /** Writes the count of log lines held back by `logLimit`, if any (on close). */
  flushLogs(): void {
    this.#env.refusals.flush()
  }
}
