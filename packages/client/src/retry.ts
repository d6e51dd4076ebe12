import { NetworkError, RateLimitedError, UnsendableRequestError } from './errors.js'

/**
 * How failed requests are sent again (the `retry` option; `false` turns it off): after a 429, and after
 * a network failure (for a trigger, only one after which no vibe can have been sent).
 */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 3; 1 turns retries off. */
  maxAttempts?: number
  /** Backoff before the first retry, doubled for each next one, with jitter. Default 250 ms. */
  baseDelayMs?: number
  /** Cap on one backoff delay. Default 8000 ms. */
  maxDelayMs?: number
  /** A `Retry-After` longer than this is not waited out: the 429 is thrown instead. Default 60 000 ms. */
  maxRetryAfterMs?: number
  /** Source of jitter, [0, 1); injectable for tests. */
  random?: () => number
}

export type ResolvedRetry = Required<RetryOptions>

/**
 * Which failures a request may be resent after. `read` requests (GET) change nothing, so any
 * network failure is retried; a `trigger` only when no vibe can have been sent (see README).
 */
export type RetryClass = 'read' | 'trigger'

export function resolveRetry(options: RetryOptions | false | undefined): ResolvedRetry {
  const given = options === false ? { maxAttempts: 1 } : (options ?? {})
  return {
    maxAttempts: Math.max(1, Math.floor(given.maxAttempts ?? 3)),
    baseDelayMs: given.baseDelayMs ?? 250,
    maxDelayMs: given.maxDelayMs ?? 8000,
    maxRetryAfterMs: given.maxRetryAfterMs ?? 60_000,
    random: given.random ?? Math.random,
  }
}

/** Milliseconds to wait before attempt `attempt + 1`, or `undefined` when `error` is final. */
export function retryDelay(
  error: unknown,
  attempt: number,
  retry: ResolvedRetry,
  kind: RetryClass,
): number | undefined {
  if (attempt >= retry.maxAttempts) return undefined
  if (error instanceof RateLimitedError) {
    // A 429 is refused before anything happens, so even a trigger may be resent.
    if (error.retryAfterMs === undefined) return backoff(attempt, retry)
    return error.retryAfterMs <= retry.maxRetryAfterMs ? error.retryAfterMs : undefined
  }
  // A request the platform refused to build would be refused again: not retried.
  if (error instanceof UnsendableRequestError) return undefined
  if (error instanceof NetworkError && (kind === 'read' || error.notSent)) return backoff(attempt, retry)
  return undefined
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so retries spread out. */
export function backoff(attempt: number, retry: ResolvedRetry): number {
  const step = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1))
  return Math.round(step / 2 + retry.random() * (step / 2))
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
