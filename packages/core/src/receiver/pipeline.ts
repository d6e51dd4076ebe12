import { ACK_BODY } from '../ack.js'
import { type Attempt, type Awaitable, andThen, attempt, failed, isThenable, outcome } from '../awaitable.js'
import { dedupKeyFor } from '../dedup/key.js'
import type { ClaimResult, StoredReply } from '../dedup/store.js'
import { type ErrorCode, RinghookError } from '../errors.js'
import { describeIssues } from '../issues.js'
import { parseEvent, type UnknownEvent, type WebhookEvent } from '../schemas/events.js'
import { getHeader } from '../signature/headers.js'
import { type VerifyResult, verifyNow } from '../signature/verify.js'
import { type BodyResult, readBody } from './body.js'
import { DeliveryContext, type DeliveryFacts } from './context.js'
import type { ClaimOutcome, DeliveryObserver } from './instrumentation.js'
import { type DecodedJson, decodeJson } from './json.js'
import { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import { DUPLICATE_HEADER, outcomeOf } from './outcome.js'
import type { HandlersResult, Registry } from './registry.js'
import { toGestureReply } from './reply.js'
import type { HandleHooks, WebhookRequest } from './request.js'
import { errorResponse, rawJsonResponse, type WebhookResponse } from './response.js'
import { declaredLength, isJson, isPost } from './unread.js'

/**
 * Everything the pipeline knows about one delivery once it is authenticated and parsed; its
 * handlers' context reads the facts it shows them from here, when they ask.
 */
class Delivery implements DeliveryFacts {
  readonly event: WebhookEvent | UnknownEvent
  readonly key: string
  readonly signedAt: number
  readonly secretIndex: number
  readonly receivedAtMs: number
  readonly hooks: HandleHooks
  readonly observer: DeliveryObserver | undefined
  readonly context: DeliveryContext

  constructor(
    event: WebhookEvent | UnknownEvent,
    key: string,
    verified: { timestamp: number; secretIndex: number },
    options: ResolvedOptions,
    hooks: HandleHooks,
    observer: DeliveryObserver | undefined,
  ) {
    this.event = event
    this.key = key
    this.signedAt = verified.timestamp
    this.secretIndex = verified.secretIndex
    this.receivedAtMs = options.now()
    this.hooks = hooks
    this.observer = observer
    this.context = new DeliveryContext(this, options.logger)
  }
}

/** A delivery waiting for its body to be read, and what to run once it is. */
class BodyWait {
  readonly body: PromiseLike<BodyResult>
  readonly resume: (body: BodyResult) => Awaitable<WebhookResponse>

  constructor(body: PromiseLike<BodyResult>, resume: (body: BodyResult) => Awaitable<WebhookResponse>) {
    this.body = body
    this.resume = resume
  }
}

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

const ACK: StoredReply = Object.freeze({ status: 200, body: ACK_BODY })
const DUPLICATE = Object.freeze({ [DUPLICATE_HEADER]: 'true' })
const RETRY_SOON = Object.freeze({ 'retry-after': '1' })
const STORE_FULL =
  'The dedup store is full of deliveries still inside their dedup window: answered 503 so the service retries. ' +
  'Give it more room: createMemoryStore({ maxBytes }) (default 40 MiB, about 100 000 deliveries), or Redis maxmemory; ' +
  'or spread the load over instances sharing @ringhook/redis.'

const HANDLER_ERROR: StoredReply = Object.freeze({ status: 500, body: errorResponse('handler_error').body })
const DEADLINE_RETRY: StoredReply = Object.freeze({ status: 503, body: errorResponse('deadline_exceeded').body })

type HandlerOutcome = { ok: true; reply: StoredReply } | { ok: false; errors: RinghookError[] }

/** What a run of handlers that acknowledged earns; one object for every such delivery. */
const ACKNOWLEDGED: HandlerOutcome = Object.freeze({ ok: true, reply: ACK })

/**
 * The whole pipeline, in a fixed order: method, size, content type, body, secret, timestamp,
 * signature, JSON, payload, dedup, dispatch. Never throws; every outcome is a response.
 *
 * Each stage hands the next one a value, or a promise when it really had to wait (a streamed
 * body, an async secret resolver, a remote store, an async handler). A buffered delivery through
 * the memory store with synchronous handlers is therefore answered synchronously: no promise,
 * no microtask, no garbage between the bytes and the reply.
 */
export class Pipeline {
  readonly #options: ResolvedOptions
  readonly #registry: Registry
  readonly #state: PipelineState
  /** Lines about refused requests, which strangers can send at will: rate-limited. */
  readonly #refusals: LimitedLog
  /** The configured secrets as a resolver's answer, made once rather than per delivery. */
  readonly #staticSecrets: Attempt<readonly string[]> | undefined
  // What ends an asynchronous delivery: it ends the delivery's count for close() and catches what
  // nobody did, in the same promise reaction. Made once, not per delivery.
  readonly #onAnswered = (response: WebhookResponse): WebhookResponse => {
    this.#state.end()
    return response
  }
  readonly #onFailed = (error: unknown): WebhookResponse => {
    this.#state.end()
    return this.#unexpected(error)
  }

  constructor(options: ResolvedOptions, registry: Registry, state: PipelineState) {
    this.#options = options
    this.#registry = registry
    this.#state = state
    this.#refusals = new LimitedLog(options.logger, options.logLimit, options.now)
    this.#staticSecrets = options.staticSecrets ? Object.freeze({ ok: true, value: options.staticSecrets }) : undefined
  }

  /** Writes the count of log lines held back by `logLimit`, if any (on close). */
  flushLogs(): void {
    this.#refusals.flush()
  }

  handle(request: WebhookRequest, hooks: HandleHooks): Awaitable<WebhookResponse> {
    let observer: DeliveryObserver | undefined
    try {
      observer = this.#options.instrumentation?.delivery(request)
      const response = this.#state.closing ? shuttingDown() : this.#receive(request, hooks, observer)
      let answered: Promise<WebhookResponse>
      if (response instanceof BodyWait) answered = this.#afterBody(response)
      else if (isThenable(response)) answered = this.#settleLater(response)
      else return observer ? ended(observer, response) : response
      return observer ? answered.then((result) => ended(observer as DeliveryObserver, result)) : answered
    } catch (error) {
      return observer ? ended(observer, this.#unexpected(error)) : this.#unexpected(error)
    }
  }

  /**
   * Waits for a streamed body, the step that usually waits, then runs the rest of the pipeline in
   * the same promise job, and settles there a delivery that nothing else made wait: a promise job
   * is a few thousand instructions, on a request of ~280,000 (bench/HISTORY.md).
   */
  #afterBody(wait: BodyWait): Promise<WebhookResponse> {
    this.#state.begin()
    return Promise.resolve(wait.body).then((body) => {
      try {
        const response = wait.resume(body)
        return isThenable(response)
          ? Promise.resolve(response).then(this.#onAnswered, this.#onFailed)
          : this.#onAnswered(response)
      } catch (error) {
        return this.#onFailed(error)
      }
    }, this.#onFailed)
  }

  /** Counts a delivery that waits for something after its body, until it is answered. */
  #settleLater(response: PromiseLike<WebhookResponse>): Promise<WebhookResponse> {
    this.#state.begin()
    return Promise.resolve(response).then(this.#onAnswered, this.#onFailed)
  }

  /** A bug in ringhook itself or a throwing logger: still answer, so the service retries. */
  #unexpected(error: unknown): WebhookResponse {
    this.#options.logger.error({ err: describe(error) }, 'Unexpected failure in the webhook pipeline')
    return errorResponse('handler_error')
  }

  /** Checks what the headers alone can tell, then reads the body within the limits. */
  #receive(
    request: WebhookRequest,
    hooks: HandleHooks,
    observer: DeliveryObserver | undefined,
  ): Awaitable<WebhookResponse> | BodyWait {
    const { maxBodyBytes } = this.#options
    // The rules of readsBody() (unread.ts), in order, with the answer each earns.
    if (!isPost(request.method)) return errorResponse('method_not_allowed', { allow: 'POST' })
    // An app misconfiguration, not a bad delivery: say so instead of failing every signature.
    if (request.bodyAlreadyParsed) {
      this.#refusals.write('error', 'body_already_parsed', { code: 'body_already_parsed' }, request.bodyAlreadyParsed)
      return errorResponse('body_already_parsed')
    }
    const declared = declaredLength(request.headers)
    if (declared > maxBodyBytes) return this.#reject('payload_too_large', { declared })
    if (this.#options.requireJsonContentType && !isJson(getHeader(request.headers, 'content-type'))) {
      return this.#reject('unsupported_media_type', {})
    }
    const body = readBody(request.rawBody, maxBodyBytes, this.#options.bodyTimeoutMs)
    if (!isThenable(body)) return this.#authenticate(request, body, hooks, observer)
    return new BodyWait(body, (read) => this.#authenticate(request, read, hooks, observer))
  }

  /** Finds the secrets for this delivery, then checks its timestamp and signature. */
  #authenticate(
    request: WebhookRequest,
    body: BodyResult,
    hooks: HandleHooks,
    observer: DeliveryObserver | undefined,
  ): Awaitable<WebhookResponse> {
    if (!body.ok) return this.#reject(body.code, {})
    // Parsed early only when a resolver needs the (untrusted) app id; reused after verification.
    const early = this.#options.resolvesPerApp ? decodeJson(body.bytes) : undefined
    const secrets = this.#secretsFor(early)
    // Each stage that may wait is called on the value it got, or from a reaction made only when it
    // has to wait: a closure and its context per stage were ~1 KB of the 4.2 KB a delivery allocated.
    if (isThenable(secrets))
      return secrets.then((found) => this.#verify(request, body.bytes, early, found, hooks, observer))
    return this.#verify(request, body.bytes, early, secrets, hooks, observer)
  }

  #verify(
    request: WebhookRequest,
    bytes: Uint8Array,
    early: DecodedJson | undefined,
    found: Attempt<string | readonly string[]>,
    hooks: HandleHooks,
    observer: DeliveryObserver | undefined,
  ): Awaitable<WebhookResponse> {
    if (!found.ok) {
      this.#refusals.write('error', 'secret_unavailable', { err: describe(found.error) }, 'The secret resolver failed')
      return errorResponse('secret_unavailable', { 'retry-after': '1' })
    }
    const verified = verifyNow({
      rawBody: bytes,
      signature: getHeader(request.headers, this.#options.signatureHeader),
      timestamp: getHeader(request.headers, this.#options.timestampHeader),
      secret: found.value,
      toleranceSeconds: this.#options.toleranceSeconds,
      now: this.#options.now,
    })
    if (isThenable(verified)) return verified.then((result) => this.#accept(bytes, early, result, hooks, observer))
    return this.#accept(bytes, early, verified, hooks, observer)
  }

  #secretsFor(decoded: DecodedJson | undefined): Awaitable<Attempt<string | readonly string[]>> {
    if (this.#staticSecrets) return this.#staticSecrets
    const { secret } = this.#options
    const appId = decoded?.ok ? (decoded.value as { app_id?: unknown } | null)?.app_id : undefined
    return attempt(() => secret({ appId: typeof appId === 'string' ? appId : undefined }))
  }

  /** Parses and validates an authentic body, then hands the delivery to dedup and the handlers. */
  #accept(
    bytes: Uint8Array,
    early: DecodedJson | undefined,
    verified: VerifyResult,
    hooks: HandleHooks,
    observer: DeliveryObserver | undefined,
  ): Awaitable<WebhookResponse> {
    observer?.verified?.(verified)
    if (!verified.ok) return this.#reject('unauthorized', { reason: verified.reason }, verified.message)
    const decoded = early ?? decodeJson(bytes)
    if (!decoded.ok) return this.#reject('invalid_json', {})
    const parsed = parseEvent(decoded.value)
    if (!parsed.ok) {
      const issues = describeIssues(parsed.error, '(payload)')
      return this.#reject('invalid_payload', {}, `The payload does not match the schema: ${issues}`)
    }
    const event = parsed.event
    const key = dedupKeyFor(event, this.#options.dedupKey)
    // Closed while this body was read: no claim is taken, so the service's retry is processed in full.
    if (this.#state.closing) return shuttingDown()
    observer?.accepted?.(event.event, key)
    const delivery = new Delivery(event, key, verified, this.#options, hooks, observer)
    return this.#claim(delivery)
  }

  /** Claims the delivery's key, then runs the handlers, or replays the reply a duplicate already got. */
  #claim(delivery: Delivery): Awaitable<WebhookResponse> {
    const { store, inFlightTtlMs } = this.#options
    const started = delivery.observer ? performance.now() : 0
    let claimed: Awaitable<Attempt<ClaimResult>>
    try {
      claimed = outcome(store.claim(delivery.key, inFlightTtlMs))
    } catch (error) {
      claimed = failed(error)
    }
    if (isThenable(claimed)) return claimed.then((claim) => this.#claimed(delivery, claim, started))
    delivery.observer?.claimed?.(claimOutcome(claimed), undefined)
    return this.#afterClaim(delivery, claimed)
  }

  /** A claim the store answered asynchronously: told to the observer with how long it took. */
  #claimed(delivery: Delivery, claim: Attempt<ClaimResult>, started: number): Awaitable<WebhookResponse> {
    delivery.observer?.claimed?.(claimOutcome(claim), performance.now() - started)
    return this.#afterClaim(delivery, claim)
  }

  #afterClaim(delivery: Delivery, claim: Attempt<ClaimResult>): Awaitable<WebhookResponse> {
    if (!claim.ok) {
      const error = new RinghookError('store_unavailable', 'The dedup store failed to claim', 'store', {
        cause: claim.error,
      })
      return andThen(this.#report(error, delivery), () =>
        this.#options.onStoreError === 'retry'
          ? errorResponse('store_unavailable', RETRY_SOON)
          : andThen(this.#dispatch(delivery, undefined), toResponse),
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
      this.#refusals.write('warn', 'store_full', { code: 'store_full', delivery_key: delivery.key }, STORE_FULL)
      return errorResponse('store_full', RETRY_SOON)
    }
    return andThen(this.#dispatch(delivery, value.token), toResponse)
  }

  /**
   * Runs the handlers against the deadline. Gives the reply to send; settles the dedup claim
   * (complete on success, release on failure) and reports late failures to `onError`.
   */
  #dispatch(delivery: Delivery, token: string | undefined): Awaitable<StoredReply> {
    const ran = this.#runHandlers(delivery)
    // Handlers that returned without a promise are done: no deadline to race.
    if (!isThenable(ran)) return this.#settle(delivery, token, ran, 'handler')
    return this.#raceDeadline(delivery, token, ran)
  }

  /** Synchronous when every handler returned a plain value, so the common case skips the deadline timer. */
  #runHandlers(delivery: Delivery): Awaitable<HandlerOutcome> {
    const { observer } = delivery
    const started = observer ? performance.now() : 0
    const ran = observer?.runHandlers
      ? observer.runHandlers(() => this.#registry.run(delivery.event, delivery.context))
      : this.#registry.run(delivery.event, delivery.context)
    if (isThenable(ran)) return ran.then((result) => handlersOutcome(delivery, result, started))
    return handlersOutcome(delivery, ran, started)
  }

  async #raceDeadline(
    delivery: Delivery,
    token: string | undefined,
    work: Promise<HandlerOutcome>,
  ): Promise<StoredReply> {
    const { deadlineMs, onDeadline } = this.#options
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(resolve, deadlineMs, 'deadline')
    })
    const first = await Promise.race([work, deadline])
    clearTimeout(timer)
    if (first !== 'deadline') return this.#settle(delivery, token, first, 'handler')

    delivery.context.abort(new RinghookError('deadline_exceeded', 'The receiver deadline passed', 'handler'))
    const late = onDeadline === 'acknowledge'
    delivery.observer?.deadline?.(onDeadline)
    delivery.context.logger.warn(
      { deadline_ms: deadlineMs },
      late
        ? 'Handlers passed the deadline: acknowledged, they keep running'
        : 'Handlers passed the deadline: answered 503 so the service retries',
    )
    const finish = work.then((result) => {
      // Acknowledged early: the stored reply is the acknowledgement the service already has.
      const settled = late && result.ok ? ACKNOWLEDGED : result
      return this.#settle(delivery, token, settled, late ? 'after_reply' : 'handler')
    })
    this.#state.track(finish)
    delivery.hooks.waitUntil?.(finish)
    return late ? ACK : DEADLINE_RETRY
  }

  /** Completes the claim after a success, releases it after a failure, and says what to answer. */
  #settle(
    delivery: Delivery,
    token: string | undefined,
    handled: HandlerOutcome,
    phase: 'handler' | 'after_reply',
  ): Awaitable<StoredReply> {
    if (!token) return this.#answer(delivery, handled, phase)
    const started = delivery.observer ? performance.now() : 0
    const settled = this.#settleClaim(delivery.key, token, handled)
    if (isThenable(settled))
      return settled.then((result) =>
        this.#settled(delivery, handled, phase, result, delivery.observer ? performance.now() - started : undefined),
      )
    return this.#settled(delivery, handled, phase, settled, undefined)
  }

  /** The store call that settles a claim, its failure as a value. */
  #settleClaim(key: string, token: string, handled: HandlerOutcome): Awaitable<Attempt<void>> {
    const { store, completedTtlMs } = this.#options
    try {
      return outcome(handled.ok ? store.complete(key, token, handled.reply, completedTtlMs) : store.release(key, token))
    } catch (error) {
      return failed(error)
    }
  }

  /** Tells the observer how settling went; a store that failed to settle is reported, then the answer given. */
  #settled(
    delivery: Delivery,
    handled: HandlerOutcome,
    phase: 'handler' | 'after_reply',
    result: Attempt<void>,
    durationMs: number | undefined,
  ): Awaitable<StoredReply> {
    delivery.observer?.settled?.(handled.ok ? 'complete' : 'release', result.ok, durationMs)
    if (result.ok) return this.#answer(delivery, handled, phase)
    const storeError = new RinghookError('store_unavailable', 'The dedup store failed to settle a claim', 'store', {
      cause: result.error,
    })
    return andThen(this.#report(storeError, delivery), () => this.#answer(delivery, handled, phase))
  }

  #answer(delivery: Delivery, handled: HandlerOutcome, phase: 'handler' | 'after_reply'): Awaitable<StoredReply> {
    return handled.ok ? handled.reply : this.#reportFailures(delivery, handled.errors, phase)
  }

  /** Reports each handler's failure, in registration order, then answers 500. */
  #reportFailures(
    delivery: Delivery,
    errors: readonly RinghookError[],
    phase: 'handler' | 'after_reply',
  ): Promise<StoredReply> {
    const relabel = (error: RinghookError): RinghookError =>
      phase === 'after_reply'
        ? new RinghookError(error.code, error.message, 'after_reply', { cause: error.cause })
        : error
    const reported = errors.reduce<Promise<void>>(
      (previous, error) => previous.then(() => this.#report(relabel(error), delivery)),
      Promise.resolve(),
    )
    return reported.then(() => HANDLER_ERROR)
  }

  /** Logs an error and hands it to every `onError` handler; their own failures are only logged. */
  async #report(error: RinghookError, delivery: Delivery): Promise<void> {
    const log = delivery.context.logger
    log.error({ code: error.code, phase: error.phase, err: describe(error.cause ?? error) }, error.message)
    for (const handler of this.#registry.errorHandlers) {
      try {
        await handler(error, delivery.event, delivery.context)
      } catch (failure) {
        log.error({ phase: 'error_handler', err: describe(failure) }, 'An onError handler threw')
      }
    }
  }

  /** Answers a refused request, and says why in the log (rate-limited: see `logLimit`). */
  #reject(code: ErrorCode, fields: Record<string, unknown>, detail?: string): WebhookResponse {
    this.#refusals.write('warn', code, { code, ...fields }, detail ?? `Rejected webhook: ${code}`)
    return errorResponse(code)
  }
}

/**
 * Closing: the service retries in a second, and `Connection: close` ends a kept-alive connection
 * after this answer, so the server can stop without cutting off a request sent on it later.
 */
const shuttingDown = (): WebhookResponse => errorResponse('shutting_down', { 'retry-after': '1', connection: 'close' })

const toResponse = (reply: StoredReply): WebhookResponse => rawJsonResponse(reply.status, reply.body)

const claimOutcome = (claim: Attempt<ClaimResult>): ClaimOutcome => (claim.ok ? claim.value.state : 'error')

/** Tells the observer what was answered. Past this point its failure cannot change the answer: ignored. */
function ended(observer: DeliveryObserver, response: WebhookResponse): WebhookResponse {
  try {
    observer.end?.(response.status, outcomeOf(response))
  } catch {
    // An instrumentation bug must not turn a delivery's answer into an exception.
  }
  return response
}

const handlerFailed = (error: unknown): RinghookError =>
  new RinghookError('handler_error', `A handler failed: ${describe(error)}`, 'handler', { cause: error })

/** What a run of the handlers came to, told to the observer with how long it took. */
function handlersOutcome(delivery: Delivery, result: HandlersResult, started: number): HandlerOutcome {
  const handled: HandlerOutcome = result.ok
    ? toOutcome(delivery, result.value)
    : { ok: false, errors: result.errors.map(handlerFailed) }
  delivery.observer?.handled?.(handled.ok, performance.now() - started)
  return handled
}

/** The reply a run of the handlers earns: a gesture's vibe (checked against the trigger rules), or the acknowledgement. */
function toOutcome(delivery: Delivery, value: unknown): HandlerOutcome {
  if (delivery.event.event !== 'gesture') return ACKNOWLEDGED
  const reply = toGestureReply(value)
  if (!reply.ok) return { ok: false, errors: [new RinghookError('handler_error', reply.message, 'reply')] }
  return { ok: true, reply: { status: 200, body: JSON.stringify(reply.reply) } }
}

/** A loggable description of anything thrown, without dumping whole objects. */
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
