import type { Logger } from '@ringhook/core'
import type * as z from 'zod/mini'
import type { Clock } from './clock.js'
import { errorFromResponse, requestIdOf } from './error-body.js'
import {
  InvalidResponseError,
  LocalRateLimitError,
  NetworkError,
  RateLimitedError,
  type RequestInfo,
  TimeoutError,
  UnsendableRequestError,
  ValidationError,
} from './errors.js'
import type { ClientInstrumentation } from './instrumentation.js'
import type { RateLimiter } from './limiter.js'
import { describeFailure, provablyNotSent } from './network.js'
import { refusalOf, requestHeaders } from './refusal.js'
import { type ResolvedRetry, type RetryClass, retryDelay } from './retry.js'
import { issuesOf } from './validate.js'

/** One call to the API, before prefix and base URL are applied. */
export interface RequestSpec<S extends z.ZodMiniType> {
  method: 'GET' | 'POST'
  /** The endpoint as documented, for instrumentation: `/apps/:app_id/users`. */
  endpoint: string
  /** Path below the prefix, segments already encoded. */
  path: string
  query?: Record<string, string>
  body?: unknown
  /** The documented shape of a 2xx answer. */
  schema: S
  retry: RetryClass
  /** The per-user limiter key; set for triggers only. */
  user?: string
  timeoutMs: number
  signal?: AbortSignal | undefined
}

export interface TransportConfig {
  apiKey: string
  baseUrl: URL
  prefix: string
  fetch: typeof fetch
  retry: ResolvedRetry
  limiter: RateLimiter | undefined
  clock: Clock
  logger: Logger
  instrumentation: ClientInstrumentation | undefined
}

export type Send = <S extends z.ZodMiniType>(spec: RequestSpec<S>) => Promise<z.output<S>>

/** Builds the function every endpoint goes through: limiter, fetch, timeout, errors, retries. */
export function createTransport(config: TransportConfig): Send {
  const base = config.baseUrl.pathname.replace(/\/+$/, '')
  return async (spec) => {
    const search = spec.query ? `?${new URLSearchParams(spec.query)}` : ''
    const intended = `${base}${config.prefix}${spec.path}`
    const url = new URL(`${intended}${search}`, config.baseUrl)
    // Errors name the path as requested, which is the intended one: anything else is refused here.
    const request: RequestInfo = { method: spec.method, path: `${url.pathname}${url.search}` }
    if (url.pathname !== intended || url.origin !== config.baseUrl.origin) {
      throw new ValidationError([{ field: 'path', message: `would be requested as ${url.pathname}, not ${intended}` }])
    }
    for (let attempt = 1; ; attempt++) {
      await acquire(config, spec)
      try {
        return await attemptOnce(config, spec, url, request, attempt)
      } catch (error) {
        if (error instanceof RateLimitedError) await pauseAfter429(config, spec, error)
        const delay = retryDelay(error, attempt, config.retry, spec.retry)
        if (delay === undefined) throw error
        config.logger.info(
          { method: request.method, path: request.path, attempt, delayMs: delay, reason: kindOf(error) },
          'Retrying a ringhook API request',
        )
        await config.clock.sleep(delay, spec.signal)
      }
    }
  }
}

/**
 * Takes a slot from the client-side limiter, if there is one. The wait is timed on the client's
 * clock, which the limiter sleeps on (injectable, so a test's virtual waits are reported as they are).
 */
async function acquire(config: TransportConfig, spec: RequestSpec<z.ZodMiniType>): Promise<void> {
  const { limiter, instrumentation, clock } = config
  if (!limiter) return
  if (!instrumentation?.limiter) return limiter.acquire(spec.user, spec.signal)
  const started = clock.now()
  let refused = false
  try {
    await limiter.acquire(spec.user, spec.signal)
  } catch (error) {
    refused = error instanceof LocalRateLimitError
    throw error
  } finally {
    instrumentation.limiter({ endpoint: spec.endpoint, durationMs: clock.now() - started, refused })
  }
}

/** Without a `Retry-After`, a 429 holds the limiter this long. */
const DEFAULT_PAUSE_MS = 1000

/**
 * The service refused anyway (another client on the key, a limit it counts differently): every
 * instance sharing the limiter holds off until `Retry-After`. A trigger's 429 is taken as the
 * user's limit, any other request's as the key's: the service does not say which.
 */
async function pauseAfter429(config: TransportConfig, spec: RequestSpec<z.ZodMiniType>, error: RateLimitedError) {
  const limiter = config.limiter
  if (!limiter?.pause) return
  try {
    await limiter.pause(spec.user === undefined ? 'key' : 'user', spec.user, error.retryAfterMs ?? DEFAULT_PAUSE_MS)
  } catch (cause) {
    config.logger.warn({ error: String(cause) }, 'Could not pause the rate limiter after a 429')
  }
}

/** What an attempt learned before it ended, for instrumentation. */
interface Answered {
  status: number
}

/** One attempt, reported to the instrumentation when there is one. */
async function attemptOnce<S extends z.ZodMiniType>(
  config: TransportConfig,
  spec: RequestSpec<S>,
  url: URL,
  request: RequestInfo,
  attempt: number,
): Promise<z.output<S>> {
  const observe = config.instrumentation?.request
  const answered: Answered = { status: 0 }
  if (!observe) return sendOnce(config, spec, url, request, answered)
  const started = performance.now()
  const report = (error: string | undefined) =>
    observe({
      method: spec.method,
      endpoint: spec.endpoint,
      status: answered.status,
      durationMs: performance.now() - started,
      attempt,
      error,
    })
  try {
    const result = await sendOnce(config, spec, url, request, answered)
    report(undefined)
    return result
  } catch (error) {
    report(spec.signal?.aborted ? 'aborted' : kindOf(error))
    throw error
  }
}

async function sendOnce<S extends z.ZodMiniType>(
  config: TransportConfig,
  spec: RequestSpec<S>,
  url: URL,
  request: RequestInfo,
  answered: Answered,
): Promise<z.output<S>> {
  const timeout = AbortSignal.timeout(spec.timeoutMs)
  const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout
  const headers = requestHeaders(config.apiKey, spec.body !== undefined)
  let status = 0
  let raw: string
  let response: Response
  try {
    response = await config.fetch(url, {
      method: spec.method,
      headers,
      signal,
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
    })
    status = response.status
    answered.status = status
    raw = await response.text()
  } catch (error) {
    // The caller's abort wins: rethrow its reason untouched, as fetch itself does.
    if (spec.signal?.aborted) throw spec.signal.reason
    if (timeout.aborted) throw new TimeoutError(request, spec.timeoutMs)
    // Refused before a byte left (the key is not a header value, say): the same every time.
    const refusal = status === 0 ? refusalOf(url, headers) : undefined
    if (refusal) throw new UnsendableRequestError(request, refusal)
    // A failure after the status line arrived means the request was certainly received.
    const notSent = status === 0 && provablyNotSent(error)
    throw new NetworkError(`${request.method} ${request.path} failed: ${describeFailure(error)}`, request, notSent, {
      cause: error,
    })
  }
  config.logger.debug({ method: request.method, path: request.path, status }, 'ringhook API response')
  if (!response.ok) throw errorFromResponse(response, raw, request, config.clock.now())
  return parseSuccess(spec.schema, raw, response, request)
}

function parseSuccess<S extends z.ZodMiniType>(
  schema: S,
  raw: string,
  response: Response,
  request: RequestInfo,
): z.output<S> {
  const fail = (message: string, cause?: unknown) =>
    new InvalidResponseError(
      `${request.method} ${request.path}: ${message}`,
      request,
      response.status,
      requestIdOf(response.headers),
      raw.slice(0, 500),
      { cause },
    )
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch (error) {
    throw fail('the service answered with a body that is not JSON', error)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const detail = issuesOf(parsed.error)
      .slice(0, 3)
      .map((issue) => `${issue.field || '(body)'} ${issue.message}`)
      .join('; ')
    throw fail(`the answer does not match the documented shape: ${detail}`, parsed.error)
  }
  return parsed.data
}

const kindOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'kind' in error ? String(error.kind) : 'unknown'
