import { type Attempt, type Awaitable, andThen, attempt, isThenable } from '../awaitable.js'
import { dedupKeyFor } from '../dedup/key.js'
import type { ErrorCode } from '../errors.js'
import { describeIssues } from '../issues.js'
import { parseEvent } from '../schemas/events.js'
import { getHeader, type HeaderInput } from '../signature/headers.js'
import { type VerifyResult, verifyNow } from '../signature/verify.js'
import { type BodyInput, type BodyResult, readBody } from './body.js'
import { DeliveryContext } from './context.js'
import { type Delivery, deduplicate, describe, type PipelineState } from './dispatch.js'
import { type DecodedJson, decodeJson } from './json.js'
import { LimitedLog } from './log-limit.js'
import type { ResolvedOptions } from './options.js'
import type { Registry } from './registry.js'
import { errorResponse, type WebhookResponse } from './response.js'

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

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** `application/json`, with parameters or a `+json` suffix; the exact string the service sends skips the regex. */
const isJson = (type: string | undefined): boolean => type === 'application/json' || JSON_TYPE.test(type ?? '')

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

  constructor(options: ResolvedOptions, registry: Registry, state: PipelineState) {
    this.#options = options
    this.#registry = registry
    this.#state = state
    this.#refusals = new LimitedLog(options.logger, options.logLimit, options.now)
  }

  /** Writes the count of log lines held back by `logLimit`, if any (on close). */
  flushLogs(): void {
    this.#refusals.flush()
  }

  handle(request: WebhookRequest, hooks: HandleHooks): Awaitable<WebhookResponse> {
    try {
      const response = this.#state.closing ? shuttingDown() : this.#receive(request, hooks)
      return isThenable(response) ? Promise.resolve(response).catch((error) => this.#unexpected(error)) : response
    } catch (error) {
      return this.#unexpected(error)
    }
  }

  /** A bug in ringhook itself or a throwing logger: still answer, so the service retries. */
  #unexpected(error: unknown): WebhookResponse {
    this.#options.logger.error({ err: describe(error) }, 'Unexpected failure in the webhook pipeline')
    return errorResponse('handler_error')
  }

  /** Checks what the headers alone can tell, then reads the body within the limits. */
  #receive(request: WebhookRequest, hooks: HandleHooks): Awaitable<WebhookResponse> {
    const { maxBodyBytes } = this.#options
    if (request.method !== 'POST' && request.method.toUpperCase() !== 'POST') {
      return errorResponse('method_not_allowed', { allow: 'POST' })
    }
    // An app misconfiguration, not a bad delivery: say so instead of failing every signature.
    if (request.bodyAlreadyParsed) {
      this.#refusals.write('error', 'body_already_parsed', { code: 'body_already_parsed' }, request.bodyAlreadyParsed)
      return errorResponse('body_already_parsed')
    }
    const declared = Number(getHeader(request.headers, 'content-length') ?? Number.NaN)
    if (declared > maxBodyBytes) return this.#reject('payload_too_large', { declared })
    if (this.#options.requireJsonContentType && !isJson(getHeader(request.headers, 'content-type'))) {
      return this.#reject('unsupported_media_type', {})
    }
    return andThen(readBody(request.rawBody, maxBodyBytes, this.#options.bodyTimeoutMs), (body) =>
      this.#authenticate(request, body, hooks),
    )
  }

  /** Finds the secrets for this delivery and checks its timestamp and signature. */
  #authenticate(request: WebhookRequest, body: BodyResult, hooks: HandleHooks): Awaitable<WebhookResponse> {
    if (!body.ok) return this.#reject(body.code, {})
    // Parsed early only when a resolver needs the (untrusted) app id; reused after verification.
    const early = this.#options.resolvesPerApp ? decodeJson(body.bytes) : undefined
    const secrets = this.#secretsFor(early)
    return andThen(secrets, (found) => {
      if (!found.ok) {
        this.#refusals.write(
          'error',
          'secret_unavailable',
          { err: describe(found.error) },
          'The secret resolver failed',
        )
        return errorResponse('secret_unavailable', { 'retry-after': '1' })
      }
      const verified = verifyNow({
        rawBody: body.bytes,
        signature: getHeader(request.headers, this.#options.signatureHeader),
        timestamp: getHeader(request.headers, this.#options.timestampHeader),
        secret: found.value,
        toleranceSeconds: this.#options.toleranceSeconds,
        now: this.#options.now,
      })
      return andThen(verified, (result) => this.#accept(body.bytes, early, result, hooks))
    })
  }

  #secretsFor(decoded: DecodedJson | undefined): Awaitable<Attempt<string | readonly string[]>> {
    const { staticSecrets, secret } = this.#options
    if (staticSecrets) return { ok: true, value: staticSecrets }
    const appId = decoded?.ok ? (decoded.value as { app_id?: unknown } | null)?.app_id : undefined
    return attempt(() => secret({ appId: typeof appId === 'string' ? appId : undefined }))
  }

  /** Parses and validates an authentic body, then hands the delivery to dedup and the handlers. */
  #accept(
    bytes: Uint8Array,
    early: DecodedJson | undefined,
    verified: VerifyResult,
    hooks: HandleHooks,
  ): Awaitable<WebhookResponse> {
    const { logger } = this.#options
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
    const eventId = (event as { data?: { event_id?: unknown } }).data?.event_id
    const context = new DeliveryContext(
      {
        key,
        eventId: typeof eventId === 'string' ? eventId : undefined,
        signedAt: verified.timestamp,
        receivedAt: new Date(this.#options.now()),
        secretIndex: verified.secretIndex,
      },
      logger,
      event.event,
    )
    // Closed while this body was read: no claim is taken, so the service's retry is processed in full.
    if (this.#state.closing) return shuttingDown()
    const delivery: Delivery = { event, key, context, hooks, refusals: this.#refusals }
    return deduplicate(this.#options, this.#registry, this.#state, delivery)
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
