import { type Logger, RinghookConfigError } from '@ringhook/core'
import { consoleLogger } from '@ringhook/core/internal'
import { type Clock, systemClock } from './clock.js'
import type { DedupLinkOptions } from './dedup-link.js'
import type { ClientInstrumentation } from './instrumentation.js'
import { createRateLimiter, type RateLimiter, type RateLimitOptions } from './limiter.js'
import { refusalOf, requestHeaders } from './refusal.js'
import { type ResolvedRetry, type RetryOptions, resolveRetry } from './retry.js'

/** How {@link createClient} reaches the service, and how it retries, limits and logs. */
export interface ClientOptions {
  /** The API key, sent as `Authorization: Bearer`; never logged. */
  apiKey: string
  /**
   * Where the service lives, e.g. `https://api.example.com`; a path in it is kept. When it already
   * ends in `prefix` (`http://127.0.0.1:4010/v1`), that ending is dropped, with a warning, so that
   * requests go to `/v1/...` and not `/v1/v1/...`.
   */
  baseUrl: string | URL
  /** Path prefix before every endpoint. Default `/v1`; `''` when the server wants none (see README). */
  prefix?: string
  /** A fetch implementation. Default: the global `fetch`. */
  fetch?: typeof fetch
  /** Retries of 429s and network failures. Default 3 attempts; `false` turns retries off. */
  retry?: RetryOptions | false
  /**
   * Client-side limits (100 requests per 60 s per key, 30 vibes per minute per user). Off by
   * default; `true` for the defaults, options to tune, or a limiter shared by several clients.
   */
  rateLimit?: boolean | RateLimitOptions | RateLimiter
  /** A pino-compatible logger. Default: warnings and errors to the console. */
  logger?: Logger
  /** Per-request timeout for everything but await-mode triggers. Default 30 000 ms. */
  timeoutMs?: number
  /** An await-mode trigger waits `timeout_ms` plus this before giving up on the HTTP request. Default 15 000 ms. */
  awaitMarginMs?: number
  /**
   * Send response configs the service would truncate (more than 5 options, labels over 15
   * characters) instead of refusing them; the service's `warnings` are returned and logged.
   * Default false. Can be set per trigger.
   */
  allowTruncation?: boolean
  /** Opt-in link to a webhook receiver's dedup store, so each response is handled once. */
  dedup?: DedupLinkOptions
  /** Injectable time for tests (limiter, backoff, waitForResponse). */
  clock?: Clock
  /** Metrics for every request, e.g. `otelClientInstrumentation()` from `@ringhook/otel`. Default: none. */
  instrumentation?: ClientInstrumentation
}

export interface ResolvedOptions {
  apiKey: string
  baseUrl: URL
  prefix: string
  fetch: typeof fetch
  retry: ResolvedRetry
  limiter: RateLimiter | undefined
  logger: Logger
  timeoutMs: number
  awaitMarginMs: number
  allowTruncation: boolean
  clock: Clock
  instrumentation: ClientInstrumentation | undefined
}

const fail = (message: string): never => {
  throw new RinghookConfigError(message)
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback
  return Number.isFinite(v) && v > 0 ? v : fail(`${name} must be a positive number, got ${String(v)}`)
}

/** `/v1`, `v1/` and `/v1/` all mean `/v1`; `''` and `/` mean no prefix. */
function normalizePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '/v1').trim().replace(/^\/+|\/+$/g, '')
  return trimmed === '' ? '' : `/${trimmed}`
}

/** A prefix the URL parser would rewrite (`..`, `.`, characters it escapes) would send every request elsewhere. */
function checkPrefix(baseUrl: URL, prefix: string): void {
  const path = `${baseUrl.pathname.replace(/\/+$/, '')}${prefix}/x`
  if (new URL(path, baseUrl).pathname !== path) {
    fail(`prefix ${JSON.stringify(prefix)} would not be sent as written: use plain path segments, e.g. /v1`)
  }
}

function parseBaseUrl(value: string | URL | undefined): URL {
  try {
    const url = new URL(value ?? '')
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // Reported below.
  }
  return fail('createClient needs `baseUrl`: the service address, e.g. https://api.example.com')
}

/**
 * A base URL that already ends in the prefix (`http://127.0.0.1:4010/v1`, as the simulator prints its
 * API) would send every request to `/v1/v1/...` and get 404s. Dropping the ending is what the user
 * meant in every case but a server mounted under `/v1/v1`, which the warning tells how to reach.
 */
function withoutPrefix(baseUrl: URL, prefix: string, logger: Logger): URL {
  const path = baseUrl.pathname.replace(/\/+$/, '')
  if (prefix === '' || !path.endsWith(prefix)) return baseUrl
  const url = new URL(baseUrl)
  url.pathname = path.slice(0, -prefix.length) || '/'
  const used = `${url.origin}${url.pathname.replace(/\/$/, '')}`
  logger.warn(
    { baseUrl: used, prefix },
    `baseUrl ends in ${prefix}, which the client adds itself: requesting ${used}${prefix}/..., not ...${prefix}${prefix}/... ` +
      `(give baseUrl without ${prefix} to silence this)`,
  )
  return url
}

function resolveLimiter(option: ClientOptions['rateLimit'], clock: Clock): RateLimiter | undefined {
  if (option === undefined || option === false) return undefined
  if (option === true) return createRateLimiter({ clock })
  if ('acquire' in option && typeof option.acquire === 'function') return option
  return createRateLimiter({ clock, ...(option as RateLimitOptions) })
}

/** Checks options and fills in defaults. Throws `RinghookConfigError`. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (typeof options?.apiKey !== 'string' || options.apiKey.trim() === '') {
    fail('createClient needs `apiKey`: the API key from the apps page')
  }
  const logger = options.logger ?? consoleLogger({ component: 'client' })
  const prefix = normalizePrefix(options.prefix)
  const baseUrl = withoutPrefix(parseBaseUrl(options.baseUrl), prefix, logger)
  checkPrefix(baseUrl, prefix)
  // Fails here, once, rather than on every call: nothing of the key is quoted.
  const refusal = refusalOf(baseUrl, requestHeaders(options.apiKey, true))
  if (refusal) fail(`createClient: ${refusal}`)
  const clock = options.clock ?? systemClock
  if (typeof (options.fetch ?? globalThis.fetch) !== 'function') fail('No global fetch: pass `fetch` to createClient')
  // Called unbound: browsers throw "Illegal invocation" when fetch's `this` is not the global.
  const fetchFn: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  return {
    apiKey: options.apiKey,
    baseUrl,
    prefix,
    fetch: fetchFn,
    retry: resolveRetry(options.retry),
    limiter: resolveLimiter(options.rateLimit, clock),
    logger,
    timeoutMs: positive('timeoutMs', options.timeoutMs, 30_000),
    awaitMarginMs: positive('awaitMarginMs', options.awaitMarginMs, 15_000),
    allowTruncation: options.allowTruncation ?? false,
    clock,
    instrumentation: options.instrumentation,
  }
}
