import type { ClaimResult, StoredReply } from '../dedup/store.js'
import { type ErrorCode, RinghookError } from '../errors.js'
import type { Logger } from '../logger.js'
import { parseEvent, type UnknownEvent, type WebhookEvent } from '../schemas/events.js'
import { getHeader, type HeaderInput } from '../signature/headers.js'
import { verifyWebhook } from '../signature/verify.js'
import { type BodyInput, readBody } from './body.js'
import { type DecodedJson, decodeJson } from './json.js'
import type { ResolvedOptions } from './options.js'
import type { Registry } from './registry.js'
import { toGestureReply } from './reply.js'
import { errorResponse, rawJsonResponse, type WebhookResponse } from './response.js'
import type { HandlerContext } from './types.js'

/** What arrived, untouched: adapters build this from their framework's request. */
export interface WebhookRequest {
  method: string
  headers: HeaderInput
  /** The body exactly as received, or a stream of it that the receiver reads with its limits. */
  rawBody: BodyInput
  /**
   * Set by an adapter when a body parser earlier in the app consumed the body and kept no raw
   * copy, so no signature can be checked: the receiver answers `body_already_parsed` (500) and
   * logs this text, which should say how to fix the app.
   */
  bodyAlreadyParsed?: string
}

/** Hooks an adapter offers the receiver. */
export interface HandleHooks {
  /** Keeps work that outlives the response alive (Workers' `ctx.waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void
}

type AnyEvent = WebhookEvent | UnknownEvent

/** Everything the pipeline knows about one delivery once it is authenticated and parsed. */
interface Delivery {
  event: AnyEvent
  key: string
  context: HandlerContext
  /** Aborts the handlers' signal (created only if a handler reads it). */
  abort: (reason: unknown) => void
}

const ACK = Object.freeze({ status: 200, body: '{"ok":true}' })
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** What the pipeline asks of the receiver's lifecycle: whether it is shutting down. */
interface ClosingState {
  readonly closing: boolean
}

const OPEN: ClosingState = { closing: false }

/**
 * The whole pipeline, in a fixed order: method, size, content type, headers, timestamp,
 * signature, JSON, payload, dedup, dispatch. Never throws; every outcome is a response.
 */
export async function handleWebhook(
  options: ResolvedOptions,
  registry: Registry,
  request: WebhookRequest,
  hooks: HandleHooks = {},
  state: ClosingState = OPEN,
): Promise<WebhookResponse> {
  try {
    if (state.closing) return shuttingDown()
    return await runPipeline(options, registry, request, hooks, state)
  } catch (error) {
    // A bug in ringhook itself or a throwing logger: still answer, so the service retries.
    options.logger.error({ err: describe(error) }, 'Unexpected failure in the webhook pipeline')
    return errorResponse('handler_error')
  }
}

async function runPipeline(
  options: ResolvedOptions,
  registry: Registry,
  request: WebhookRequest,
  hooks: HandleHooks,
  state: ClosingState,
): Promise<WebhookResponse> {
  const { logger } = options
  if (request.method.toUpperCase() !== 'POST') return errorResponse('method_not_allowed', { allow: 'POST' })
  // An app misconfiguration, not a bad delivery: say so instead of failing every signature.
  if (request.bodyAlreadyParsed) {
    logger.error({ code: 'body_already_parsed' }, request.bodyAlreadyParsed)
    return errorResponse('body_already_parsed')
  }
  const declared = Number(getHeader(request.headers, 'content-length') ?? Number.NaN)
  if (declared > options.maxBodyBytes) return reject(logger, 'payload_too_large', { declared })
  if (options.requireJsonContentType && !JSON_TYPE.test(getHeader(request.headers, 'content-type') ?? '')) {
    return reject(logger, 'unsupported_media_type', {})
  }
  const body = await readBody(request.rawBody, options.maxBodyBytes, options.bodyTimeoutMs)
  if (!body.ok) return reject(logger, body.code, {})

  // Parsed early only when a resolver needs the (untrusted) app id; reused after verification.
  let decoded: DecodedJson | undefined
  let secrets: string | readonly string[]
  try {
    if (options.resolvesPerApp) decoded = decodeJson(body.bytes)
    const appId = decoded?.ok ? (decoded.value as { app_id?: unknown } | null)?.app_id : undefined
    secrets = await options.secret({ appId: typeof appId === 'string' ? appId : undefined })
  } catch (error) {
    logger.error({ err: describe(error) }, 'The secret resolver failed')
    return errorResponse('secret_unavailable', { 'retry-after': '1' })
  }
  const verified = await verifyWebhook({
    rawBody: body.bytes,
    signature: getHeader(request.headers, options.signatureHeader),
    timestamp: getHeader(request.headers, options.timestampHeader),
    secret: secrets,
    toleranceSeconds: options.toleranceSeconds,
    now: options.now,
  })
  if (!verified.ok) return reject(logger, 'unauthorized', { reason: verified.reason }, verified.message)

  decoded ??= decodeJson(body.bytes)
  if (!decoded.ok) return reject(logger, 'invalid_json', {})
  const parsed = parseEvent(decoded.value)
  if (!parsed.ok) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    return reject(logger, 'invalid_payload', {}, `The payload does not match the schema: ${issues}`)
  }
  const event = parsed.event
  const key = options.dedupKey(event)
  const eventId = (event as { data?: { event_id?: unknown } }).data?.event_id
  const signal = lazySignal()
  const context: HandlerContext = {
    logger: logger.child({ event: event.event, delivery_key: key, timestamp: verified.timestamp }),
    get signal() {
      return signal.get()
    },
    delivery: {
      key,
      eventId: typeof eventId === 'string' ? eventId : undefined,
      signedAt: verified.timestamp,
      receivedAt: new Date(options.now()),
      secretIndex: verified.secretIndex,
    },
  }
  // Closed while this body was read: no claim is taken, so the service's retry is processed in full.
  if (state.closing) return shuttingDown()
  return deduplicated(options, registry, { event, key, context, abort: signal.abort }, hooks)
}

/**
 * The handlers' abort signal, made on first read: an AbortController costs more than the rest of
 * the context together, and most handlers never look at it. Aborted before it is read, it is born aborted.
 */
function lazySignal(): { get(): AbortSignal; abort(reason: unknown): void } {
  let controller: AbortController | undefined
  let reason: { value: unknown } | undefined
  return {
    get() {
      if (!controller) {
        controller = new AbortController()
        if (reason) controller.abort(reason.value)
      }
      return controller.signal
    },
    abort(value) {
      reason ??= { value }
      controller?.abort(value)
    },
  }
}

const shuttingDown = (): WebhookResponse => errorResponse('shutting_down', { 'retry-after': '1' })

async function deduplicated(
  options: ResolvedOptions,
  registry: Registry,
  delivery: Delivery,
  hooks: HandleHooks,
): Promise<WebhookResponse> {
  const { store } = options
  const log = delivery.context.logger
  let claim: ClaimResult
  try {
    claim = await store.claim(delivery.key, options.inFlightTtlMs)
  } catch (error) {
    await report(
      options,
      registry,
      new RinghookError('store_unavailable', 'The dedup store failed to claim', 'store', { cause: error }),
      delivery,
    )
    if (options.onStoreError === 'retry') return errorResponse('store_unavailable', { 'retry-after': '1' })
    return toResponse((await dispatch(options, registry, delivery, hooks, undefined)).reply)
  }
  if (claim.state === 'completed') {
    log.info({}, 'Duplicate delivery: replaying the stored reply')
    return toResponse(claim.reply, { 'x-ringhook-duplicate': 'true' })
  }
  if (claim.state === 'in_flight') {
    log.info({}, 'Duplicate of a delivery still in progress')
    return errorResponse('delivery_in_progress', { 'retry-after': '1' })
  }
  return toResponse((await dispatch(options, registry, delivery, hooks, claim.token)).reply)
}

const toResponse = (reply: StoredReply, headers?: Record<string, string>): WebhookResponse =>
  rawJsonResponse(reply.status, reply.body, headers)

/**
 * Runs the handlers against the deadline. Resolves with the reply to send; settles the dedup
 * claim (complete on success, release on failure) and reports late failures to `onError`.
 */
async function dispatch(
  options: ResolvedOptions,
  registry: Registry,
  delivery: Delivery,
  hooks: HandleHooks,
  token: string | undefined,
): Promise<{ reply: StoredReply }> {
  const ran = runHandlers(registry, delivery)
  // Handlers that returned without a promise are done: no deadline to race.
  if (!(ran instanceof Promise)) return { reply: await settle(options, registry, delivery, token, ran, 'handler') }
  const work = ran
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(resolve, options.deadlineMs, 'deadline')
  })
  const outcome = await Promise.race([work, deadline])
  clearTimeout(timer)
  if (outcome !== 'deadline') return { reply: await settle(options, registry, delivery, token, outcome, 'handler') }

  delivery.abort(new RinghookError('deadline_exceeded', 'The receiver deadline passed', 'handler'))
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
  hooks.waitUntil?.(finish)
  return { reply: late ? ACK : { status: 503, body: errorResponse('deadline_exceeded').body } }
}

type HandlerOutcome = { ok: true; reply: StoredReply } | { ok: false; error: RinghookError }

/** Synchronous when every handler returned a plain value, so the common case skips the deadline timer. */
function runHandlers(registry: Registry, delivery: Delivery): HandlerOutcome | Promise<HandlerOutcome> {
  let value: unknown
  try {
    value = registry.run(delivery.event, delivery.context)
  } catch (error) {
    return handlerFailed(error)
  }
  if (value instanceof Promise) return value.then((v) => toOutcome(delivery, v), handlerFailed)
  return toOutcome(delivery, value)
}

const handlerFailed = (error: unknown): HandlerOutcome => ({
  ok: false,
  error: new RinghookError('handler_error', `A handler failed: ${describe(error)}`, 'handler', { cause: error }),
})

function toOutcome(delivery: Delivery, value: unknown): HandlerOutcome {
  if (delivery.event.event !== 'gesture') return { ok: true, reply: ACK }
  const reply = toGestureReply(value)
  if (!reply.ok) return { ok: false, error: new RinghookError('handler_error', reply.message, 'reply') }
  return { ok: true, reply: { status: 200, body: JSON.stringify(reply.reply) } }
}

async function settle(
  options: ResolvedOptions,
  registry: Registry,
  delivery: Delivery,
  token: string | undefined,
  outcome: HandlerOutcome,
  phase: 'handler' | 'after_reply',
): Promise<StoredReply> {
  try {
    if (outcome.ok) {
      if (token) await options.store.complete(delivery.key, token, outcome.reply, options.completedTtlMs)
      return outcome.reply
    }
    if (token) await options.store.release(delivery.key, token)
  } catch (error) {
    const storeError = new RinghookError('store_unavailable', 'The dedup store failed to settle a claim', 'store', {
      cause: error,
    })
    await report(options, registry, storeError, delivery)
    if (outcome.ok) return outcome.reply
  }
  const error = outcome.ok ? undefined : outcome.error
  if (error) {
    const reported =
      phase === 'after_reply'
        ? new RinghookError(error.code, error.message, 'after_reply', { cause: error.cause })
        : error
    await report(options, registry, reported, delivery)
  }
  return { status: 500, body: errorResponse('handler_error').body }
}

/** Logs an error and hands it to every `onError` handler; their own failures are only logged. */
async function report(
  options: ResolvedOptions,
  registry: Registry,
  error: RinghookError,
  delivery: Delivery | undefined,
) {
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

function reject(logger: Logger, code: ErrorCode, fields: Record<string, unknown>, detail?: string): WebhookResponse {
  logger.warn({ code, ...fields }, detail ?? `Rejected webhook: ${code}`)
  return errorResponse(code)
}

/** A loggable description of anything thrown, without dumping whole objects. */
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
