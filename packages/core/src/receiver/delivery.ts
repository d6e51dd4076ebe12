import type { Attempt } from '../awaitable.js'
import type { Recorder } from '../capture/recorder.js'
import type { Logger } from '../logger.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import { DeliveryContext, type DeliveryFacts } from './context.js'
import type { DeliveryObserver, DeliveryOutcome } from './instrumentation.js'
import type { DecodedJson } from './json.js'
import type { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import type { Registry } from './registry.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'
import type { HandlerOutcome } from './stages/handled.js'
import type { VibeBudget } from './vibe-budget.js'

/** What the pipeline asks of the receiver's lifecycle. */
export interface PipelineState {
  /** Whether the receiver is shutting down. */
  readonly closing: boolean
  /** Counts work that outlives its response (handlers past the deadline) until it settles. */
  track(work: Promise<unknown>): unknown
  /** Counts a delivery that is being answered asynchronously, until `end()`. */
  begin(): void
  /** Counts that delivery as answered. */
  end(): void
}

/** Everything a stage may use besides the delivery: the receiver's options, handlers and state. */
export interface Environment {
  readonly options: ResolvedOptions
  readonly registry: Registry
  readonly state: PipelineState
  /** Lines about refused requests, which strangers can send at will: rate-limited. */
  readonly refusals: LimitedLog
  /** The configured secrets as a resolver's answer, made once rather than per delivery. */
  readonly staticSecrets: Attempt<readonly string[]> | undefined
  /** Records answered deliveries, when configured. */
  readonly capture: Recorder | undefined
  /** Whether the secret resolver's failure was logged: once per receiver, not once per delivery. */
  secretWarned: boolean
  /** Runs the stages after `stage` with `input` (a delivery's handlers finishing past the deadline). */
  readonly runAfter: (delivery: Delivery, stage: Stage, input: unknown) => unknown
}

/** The marker a stage returns once it recorded the delivery's answer: no later stage runs. */
export const ANSWERED: unique symbol = Symbol('answered')
export type Answered = typeof ANSWERED

/** What a stage gives the next one, or `ANSWERED`; a promise of either when it has to wait. */
export type Step<T> = T | Answered | Promise<T | Answered>

/** One stage: the delivery, the environment, and what the stage before it gave. */
export type Stage = (delivery: Delivery, env: Environment, input: never) => Step<unknown>

const NOT_YET_READ = new Uint8Array(0)
const NOT_YET_PARSED = Object.freeze({ event: '' }) as UnknownEvent

/**
 * One delivery on its way through the pipeline: what it arrived with, what each stage found, and
 * the answer once a stage gave it. Handlers' context reads the facts it shows them from here.
 */
export class Delivery implements DeliveryFacts {
  readonly request: WebhookRequest
  readonly hooks: HandleHooks
  readonly context: DeliveryContext
  observer: DeliveryObserver | undefined = undefined
  /** The body as received, once read. */
  bytes: Uint8Array = NOT_YET_READ
  /** The body decoded before verification, only for a resolver that picks secrets by app id. */
  decoded: DecodedJson | undefined = undefined
  signedAt = 0
  secretIndex = 0
  budget: VibeBudget | undefined = undefined
  event: WebhookEvent | UnknownEvent = NOT_YET_PARSED
  key = ''
  receivedAtMs = 0
  /** When the request reached the receiver, read only when a capture records deliveries. */
  arrivedAtMs = 0
  /** The dedup claim's token; undefined when the store failed and `onStoreError` is `'process'`. */
  token: string | undefined = undefined
  /** What the handlers came to. */
  handled: HandlerOutcome | undefined = undefined
  /** Answered at the deadline with an acknowledgement: a later failure is reported as `after_reply`. */
  afterReply = false
  /** When the stage being timed began (`performance.now()`), read only with an observer. */
  startedAt = 0
  /** Whether the value the current stage got was waited for (a store call that answered later). */
  waited = false
  /** Whether this delivery is counted as answered asynchronously, for `close()`. */
  counted = false
  /** Whether the observer and the capture were told the answer. */
  ended = false
  response: WebhookResponse | undefined = undefined
  /** What the answer was, recorded by the stage that gave it, for the observer's `end()`. */
  outcome: DeliveryOutcome = 'internal_error'

  constructor(request: WebhookRequest, hooks: HandleHooks, logger: Logger) {
    this.request = request
    this.hooks = hooks
    this.context = new DeliveryContext(this, logger)
  }
}

/** How long the stage being timed waited, or `undefined` when its call answered at once (nothing was waited for). */
export const waitedFor = (delivery: Delivery): number | undefined =>
  delivery.waited ? performance.now() - delivery.startedAt : undefined
