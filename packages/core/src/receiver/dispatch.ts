import { ACK_BODY } from '../ack.js'
import { type Attempt, type Awaitable, andThen, attempt, isThenable } from '../awaitable.js'
import type { ClaimResult, StoredReply } from '../dedup/store.js'
import { RinghookError } from '../errors.js'
import type { UnknownEvent, WebhookEvent } from '../schemas/events.js'
import type { DeliveryContext } from './context.js'
import type { HandleHooks } from './handle.js'
import type { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import type { Registry } from './registry.js'
import { toGestureReply } from './reply.js'
import { errorResponse, rawJsonResponse, type WebhookResponse } from './response.js'

/** Everything the pipeline knows about one delivery once it is authenticated and parsed. */
export interface Delivery {
  event: WebhookEvent | UnknownEvent
  key: string
  context: DeliveryContext
  hooks: HandleHooks
  /** Where lines about refused deliveries go, rate-limited. */
  refusals: LimitedLog
}

/** What the pipeline asks of the receiver's lifecycle. */
export interface PipelineState {
  /** Whether the receiver is shutting down. */
  readonly closing: boolean
  /** Counts work that outlives its response (handlers past the deadline) until it settles. */
  track(work: Promise<unknown>): unknown
}

const ACK: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })
const DUPLICATE = Object.freeze({ 'x-ringhook-duplicate': 'true' })
const RETRY_SOON = Object.freeze({ 'retry-after': '1' })
const STORE_FULL =
  'The dedup store is full of deliveries still inside their dedup window: answered 503 so the service retries. ' +
  'Give it more room: createMemoryStore({ maxBytes }) (default 40 MiB, about 100 000 deliveries), or Redis maxmemory; ' +
  'or spread the load over instances sharing @ringhook/redis.'

type HandlerOutcome = { ok: true; reply: StoredReply } | { ok: false; errors: RinghookError[] }

/** Claims the delivery's key, then runs the handlers, or replays the reply a duplicate already got. */
export function deduplicate(
  options: ResolvedOptions,
  registry: Registry,
  state: PipelineState,
  delivery: Delivery,
): Awaitable<WebhookResponse> {
  const claimed = attempt(() => options.store.claim(delivery.key, options.inFlightTtlMs))
  return andThen(claimed, (claim) => afterClaim(options, registry, state, delivery, claim))
}

function afterClaim(
  options: ResolvedOptions,
  registry: Registry,
  state: PipelineState,
  delivery: Delivery,
  claim: Attempt<ClaimResult>,
): Awaitable<WebhookResponse> {
  if (!claim.ok) {
    const error = new RinghookError('store_unavailable', 'The dedup store failed to claim', 'store', {
      cause: claim.error,
    })
    return andThen(report(options, registry, error, delivery), () =>
      options.onStoreError === 'retry'
        ? errorResponse('store_unavailable', RETRY_SOON)
        : andThen(dispatch(options, registry, state, delivery, undefined), toResponse),
    )
  }
  const { value } = claim
  if (value.state === 'completed') {
    delivery.context.logger.info({}, 'Duplicate delivery: replaying the stored reply')
    return rawJsonResponse(value.reply.status, value.reply.body, DUPLICATE)
  }
  if (value.state === 'in_flight') {
    delivery.context.logger.info({}, 'Duplicate of a delivery still in progress')
    return errorResponse('delivery_in_progress', RETRY_SOON)
  }
  if (value.state === 'full') {
    // Never "process anyway": a delivery handled without a claim could be handled twice.
    delivery.refusals.write('warn', 'store_full', { code: 'store_full', delivery_key: delivery.key }, STORE_FULL)
    return errorResponse('store_full', RETRY_SOON)
  }
  return andThen(dispatch(options, registry, state, delivery, value.token), toResponse)
}

const toResponse = (reply: StoredReply): WebhookResponse => rawJsonResponse(reply.status, reply.body)

/**
 * Runs the handlers against the deadline. Gives the reply to send; settles the dedup claim
 * (complete on success, release on failure) and reports late failures to `onError`.
 */
function dispatch(
  options: ResolvedOptions,
  registry: Registry,
  state: PipelineState,
  delivery: Delivery,
  token: string | undefined,
): Awaitable<StoredReply> {
  const ran = runHandlers(registry, delivery)
  // Handlers that returned without a promise are done: no deadline to race.
  if (!isThenable(ran)) return settle(options, registry, delivery, token, ran, 'handler')
  return raceDeadline(options, registry, state, delivery, token, ran)
}

async function raceDeadline(
  options: ResolvedOptions,
  registry: Registry,
  state: PipelineState,
  delivery: Delivery,
  token: string | undefined,
  work: Promise<HandlerOutcome>,
): Promise<StoredReply> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(resolve, options.deadlineMs, 'deadline')
  })
  const outcome = await Promise.race([work, deadline])
  clearTimeout(timer)
  if (outcome !== 'deadline') return settle(options, registry, delivery, token, outcome, 'handler')

  delivery.context.abort(new RinghookError('deadline_exceeded', 'The receiver deadline passed', 'handler'))
  const late = options.onDeadline === 'acknowledge'
  delivery.context.logger.warn(
    { deadline_ms: options.deadlineMs },
    late
      ? 'Handlers passed the deadline: acknowledged, they keep running'
      : 'Handlers passed the deadline: answered 503 so the service retries',
  )
  const finish = work.then((result) => {
    // Acknowledged early: the stored reply is the acknowledgement the service already has.
    const settled = late && result.ok ? { ok: true as const, reply: ACK } : result
    return settle(options, registry, delivery, token, settled, late ? 'after_reply' : 'handler')
  })
  state.track(finish)
  delivery.hooks.waitUntil?.(finish)
  return late ? ACK : { status: 503, body: errorResponse('deadline_exceeded').body }
}

/** Synchronous when every handler returned a plain value, so the common case skips the deadline timer. */
function runHandlers(registry: Registry, delivery: Delivery): Awaitable<HandlerOutcome> {
  return andThen(registry.run(delivery.event, delivery.context), (result) =>
    result.ok ? toOutcome(delivery, result.value) : { ok: false, errors: result.errors.map(handlerFailed) },
  )
}

const handlerFailed = (error: unknown): RinghookError =>
  new RinghookError('handler_error', `A handler failed: ${describe(error)}`, 'handler', { cause: error })

function toOutcome(delivery: Delivery, value: unknown): HandlerOutcome {
  if (delivery.event.event !== 'gesture') return { ok: true, reply: ACK }
  const reply = toGestureReply(value)
  if (!reply.ok) return { ok: false, errors: [new RinghookError('handler_error', reply.message, 'reply')] }
  return { ok: true, reply: { status: 200, body: JSON.stringify(reply.reply) } }
}

const HANDLER_ERROR: StoredReply = Object.freeze({ status: 500, body: errorResponse('handler_error').body })

/** Completes the claim after a success, releases it after a failure, and says what to answer. */
function settle(
  options: ResolvedOptions,
  registry: Registry,
  delivery: Delivery,
  token: string | undefined,
  outcome: HandlerOutcome,
  phase: 'handler' | 'after_reply',
): Awaitable<StoredReply> {
  const { store } = options
  const settled = token
    ? attempt(() =>
        outcome.ok
          ? store.complete(delivery.key, token, outcome.reply, options.completedTtlMs)
          : store.release(delivery.key, token),
      )
    : undefined
  const answer = (): Awaitable<StoredReply> =>
    outcome.ok ? outcome.reply : reportFailures(options, registry, delivery, outcome.errors, phase)
  return andThen(settled, (result) => {
    if (result?.ok !== false) return answer()
    const storeError = new RinghookError('store_unavailable', 'The dedup store failed to settle a claim', 'store', {
      cause: result.error,
    })
    return andThen(report(options, registry, storeError, delivery), answer)
  })
}

/** Reports each handler's failure, in registration order, then answers 500. */
function reportFailures(
  options: ResolvedOptions,
  registry: Registry,
  delivery: Delivery,
  errors: readonly RinghookError[],
  phase: 'handler' | 'after_reply',
): Awaitable<StoredReply> {
  const relabel = (error: RinghookError): RinghookError =>
    phase === 'after_reply'
      ? new RinghookError(error.code, error.message, 'after_reply', { cause: error.cause })
      : error
  const reported = errors.reduce<Promise<void>>(
    (previous, error) => previous.then(() => report(options, registry, relabel(error), delivery)),
    Promise.resolve(),
  )
  return reported.then(() => HANDLER_ERROR)
}

/** Logs an error and hands it to every `onError` handler; their own failures are only logged. */
async function report(
  options: ResolvedOptions,
  registry: Registry,
  error: RinghookError,
  delivery: Delivery | undefined,
): Promise<void> {
  const log = delivery?.context.logger ?? options.logger
  log.error({ code: error.code, phase: error.phase, err: describe(error.cause ?? error) }, error.message)
  for (const handler of registry.errorHandlers) {
    try {
      await handler(error, delivery?.event, delivery?.context)
    } catch (failure) {
      log.error({ phase: 'error_handler', err: describe(failure) }, 'An onError handler threw')
    }
  }
}

/** A loggable description of anything thrown, without dumping whole objects. */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
