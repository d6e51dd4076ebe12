import type { Logger } from '../logger.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import { DeliveryContext, type DeliveryFacts } from './context.js'
import type { DeliveryObserver, DeliveryOutcome } from './instrumentation.js'
import type { DecodedJson } from './json.js'
import type { AnsweredDelivery } from './outlet.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import type { WebhookResponse } from './response.js'

const NOT_YET_READ = new Uint8Array(0)
const NOT_YET_PARSED = Object.freeze({ event: '' }) as UnknownEvent
const NOT_YET_ANSWERED: WebhookResponse = Object.freeze({ status: 0, headers: {}, body: '' })

/**
 * One request on its way through the pipeline, from its arrival to its answer: what it arrived
 * with, what the stages found that later ones or the handlers' context read, and the answer. What a
 * stage only passes to the next one is its return value, not a field here.
 */
export class Exchange implements DeliveryFacts, AnsweredDelivery {
  readonly request: WebhookRequest
  readonly hooks: HandleHooks
  readonly context: DeliveryContext
  /** When the request reached the receiver, from its `now()`. */
  receivedAtMs = 0
  /** The instrumentation's observer of this delivery, when one watches it. */
  observer: DeliveryObserver | undefined = undefined
  /** The body as received, once read (receive). */
  bytes: Uint8Array = NOT_YET_READ
  /** The body decoded once: early, for a secret resolver that picks by app id (authenticate), or by parse. */
  json: DecodedJson | undefined = undefined
  /** The signed timestamp and the index of the secret that matched (authenticate). */
  signedAt = 0
  secretIndex = 0
  /** The event and its dedup key (parse). */
  event: WebhookEvent | UnknownEvent = NOT_YET_PARSED
  key = ''
  /** The dedup claim's token (dedup); undefined when the store failed and `onStoreError` is `'process'`. */
  token: string | undefined = undefined
  /** Acknowledged at the deadline (handle): a later failure is reported as `after_reply`. */
  afterReply = false
  /** When the timed work of a stage began (`performance.now()`), read only with an observer. */
  startedAt = 0
  /** Whether the result a stage is judging was waited for (set by the loop). */
  waited = false
  /** Whether the loop counts this exchange as being answered asynchronously, for `close()`. */
  counted = false
  /** The answer: the first one given stands. */
  response: WebhookResponse = NOT_YET_ANSWERED
  /** What the answer was, for the outlet. */
  outcome: DeliveryOutcome = 'internal_error'
  /** Whether the outlet has it. */
  ended = false

  constructor(request: WebhookRequest, hooks: HandleHooks, logger: Logger) {
    this.request = request
    this.hooks = hooks
    this.context = new DeliveryContext(this, logger)
  }

  /** Whether a stage gave the answer already. */
  get hasAnswer(): boolean {
    return this.response !== NOT_YET_ANSWERED
  }
}

/** How long the stage being judged waited for its work, or `undefined` when it answered at once (nothing was waited for). */
export const waitedFor = (exchange: Exchange): number | undefined =>
  exchange.waited ? performance.now() - exchange.startedAt : undefined
