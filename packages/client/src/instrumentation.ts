/**
 * Watches the client's requests, for metrics: `otelClientInstrumentation()` from `@ringhook/otel` is
 * one. A client without one does no instrumentation work. Callbacks must not throw.
 */
export interface ClientInstrumentation {
  /** One attempt answered, or ended without an answer (`status` 0). Each retry is an attempt of its own. */
  request?(attempt: ClientAttempt): void
  /** The client-side rate limiter gave a slot, or refused one: how long the request waited for it. */
  limiter?(wait: LimiterWait): void
}

/** One attempt of a client call, as an instrumentation sees it: no ids, no body. */
export interface ClientAttempt {
  /** The HTTP method sent. */
  method: 'GET' | 'POST'
  /** The endpoint as the service documents it, ids as placeholders: `/apps/:app_id/users`. */
  endpoint: string
  /** The HTTP status answered; 0 when none arrived (timeout, network failure, abort). */
  status: number
  /** From sending the request to reading (and checking) the whole answer. */
  durationMs: number
  /** 1 for the first attempt of a call, 2 for its first retry... */
  attempt: number
  /** The kind of the error the attempt ended in (`rate_limited`, `timeout`...), `aborted`, or undefined. */
  error: string | undefined
}

/** A wait for the client-side rate limiter's slot. */
export interface LimiterWait {
  /** The endpoint as the service documents it, ids as placeholders. */
  endpoint: string
  /** How long the request waited for its slot. */
  durationMs: number
  /** The limiter refused the slot (`LocalRateLimitError`, in `fail` mode or past `maxWaitMs`). */
  refused: boolean
}
