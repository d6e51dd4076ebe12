/** What went wrong, as a string to switch on; every client error has one. */
export type ClientErrorKind =
  | 'validation'
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'permission_disabled'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'http_error'
  | 'network'
  | 'unsendable_request'
  | 'timeout'
  | 'invalid_response'
  | 'local_rate_limit'

/** Base class of every error the client throws (aborts rethrow the signal's own reason). */
export abstract class RinghookClientError extends Error {
  /** What went wrong, one value per class: switch on it instead of `instanceof`. */
  abstract readonly kind: ClientErrorKind
}

/** One problem with an input, as zod reports it. */
export interface InputIssue {
  /** Dotted path of the field, e.g. `sequence.0.delay_ms`; empty for the input as a whole. */
  field: string
  /** What is wrong with it, e.g. `must be at most 15 characters`. */
  message: string
}

/** An input refused before any request was sent. */
export class ValidationError extends RinghookClientError {
  /** Always `'ValidationError'`. */
  override readonly name = 'ValidationError'
  /** Always `'validation'`. */
  readonly kind = 'validation'
  /** The first offending field, e.g. `response_config.options.0.label`. */
  readonly field: string
  constructor(
    /** Every problem found, the first of them in the message. */
    readonly issues: readonly InputIssue[],
  ) {
    const first = issues[0] ?? { field: '', message: 'is invalid' }
    super(
      `Invalid ${first.field || 'input'}: ${first.message}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}`,
    )
    this.field = first.field
  }
}

/** Where a failed request went; never includes the API key. */
export interface RequestInfo {
  /** `GET`, `POST`... */
  method: string
  /**
   * The path as requested (the base URL's own path, prefix, endpoint and query), e.g.
   * `/v1/apps/app_1/users?state=active`.
   */
  path: string
}

export interface ApiErrorInit {
  status: number
  code: string
  message: string
  requestId: string | undefined
  request: RequestInfo
  /** The body as sent, parsed when it was JSON; undocumented by the service, so kept raw. */
  body: unknown
}

/** The service answered with an error status. */
export class RinghookApiError extends RinghookClientError {
  /** Always `'RinghookApiError'`. */
  override readonly name: string = 'RinghookApiError'
  /** `'http_error'` for a status no subclass covers; each subclass has its own. */
  readonly kind: ClientErrorKind = 'http_error'
  /** The HTTP status the service answered. */
  readonly status: number
  /** The service's error code, or one derived from the status when it sent none. */
  readonly code: string
  /** The service's request id (`x-request-id` or the body's), to quote when asking about this request. */
  readonly requestId: string | undefined
  /** The request that failed. */
  readonly request: RequestInfo
  /** The body as sent, parsed when it was JSON; undocumented by the service, so kept raw. */
  readonly body: unknown
  constructor(init: ApiErrorInit) {
    super(`${init.request.method} ${init.request.path} failed with ${init.status} ${init.code}: ${init.message}`)
    this.status = init.status
    this.code = init.code
    this.requestId = init.requestId
    this.request = init.request
    this.body = init.body
  }
}

/**
 * 400, the service's `invalid_request`: a field the service refused, or `@me` with a key not
 * linked to a user account.
 */
export class InvalidRequestError extends RinghookApiError {
  /** Always `'InvalidRequestError'`. */
  override readonly name = 'InvalidRequestError'
  override readonly kind = 'invalid_request'
}

/** @deprecated Renamed {@link InvalidRequestError} (kind `'invalid_request'`); removed in 0.3.0. */
export const BadRequestError = InvalidRequestError
/** @deprecated Renamed {@link InvalidRequestError}; removed in 0.3.0. */
export type BadRequestError = InvalidRequestError

/** 401: the API key is missing, wrong or revoked. */
export class UnauthorizedError extends RinghookApiError {
  /** Always `'UnauthorizedError'`. */
  override readonly name = 'UnauthorizedError'
  override readonly kind = 'unauthorized'
}

/** 403: the user has not installed the app (or, for `@me`, not on the caller's ring). */
export class ForbiddenError extends RinghookApiError {
  /** Always `'ForbiddenError'`. */
  override readonly name: string = 'ForbiddenError'
  override readonly kind: ClientErrorKind = 'forbidden'
}

/** 403 with code `permission_disabled`: the user turned vibes off for this app. */
export class PermissionDisabledError extends ForbiddenError {
  /** Always `'PermissionDisabledError'`. */
  override readonly name = 'PermissionDisabledError'
  override readonly kind = 'permission_disabled'
}

/** 404: the app is unknown or not owned by this key, or the user or event is unknown. */
export class NotFoundError extends RinghookApiError {
  /** Always `'NotFoundError'`. */
  override readonly name = 'NotFoundError'
  override readonly kind = 'not_found'
}

/**
 * 429, the service's `rate_limited`, after the client's retries (if any) ran out. The client's own
 * limiter throws {@link LocalRateLimitError} instead.
 */
export class RateLimitedError extends RinghookApiError {
  /** Always `'RateLimitedError'`. */
  override readonly name = 'RateLimitedError'
  override readonly kind = 'rate_limited'
  constructor(
    init: ApiErrorInit,
    /** From `Retry-After` when the service sent one. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(init)
  }
}

/** @deprecated Renamed {@link RateLimitedError} (kind `'rate_limited'`); removed in 0.3.0. */
export const TooManyRequestsError = RateLimitedError
/** @deprecated Renamed {@link RateLimitedError}; removed in 0.3.0. */
export type TooManyRequestsError = RateLimitedError

/** 5xx: the service failed. Never retried for triggers, which may already have vibed. */
export class ServerError extends RinghookApiError {
  /** Always `'ServerError'`. */
  override readonly name = 'ServerError'
  override readonly kind = 'server_error'
}

/** The request failed below HTTP: refused, reset, DNS, TLS. */
export class NetworkError extends RinghookClientError {
  /** Always `'NetworkError'`. */
  override readonly name: string = 'NetworkError'
  /** `'network'`, or a subclass's own. */
  readonly kind: ClientErrorKind = 'network'
  constructor(
    message: string,
    /** The request that failed. */
    readonly request: RequestInfo,
    /** True when the request provably never reached the service (refused, DNS), so resending is safe. */
    readonly notSent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * The platform refused to build the request (fetch rejects the API key as a header value, or
 * the URL): not a byte was sent, so `notSent` is true, and it is never retried, since it would
 * fail the same way every time. The platform's own error is not kept: its message quotes the
 * refused value, which may be the API key.
 */
export class UnsendableRequestError extends NetworkError {
  /** Always `'UnsendableRequestError'`. */
  override readonly name = 'UnsendableRequestError'
  override readonly kind = 'unsendable_request'
  constructor(
    request: RequestInfo,
    /** What was refused, in words that never include the value. */
    readonly reason: string,
  ) {
    super(`${request.method} ${request.path} could not be sent: ${reason}`, request, true)
  }
}

/** No answer within the client's own request timeout; the service may have acted on the request. */
export class TimeoutError extends NetworkError {
  /** Always `'TimeoutError'`. */
  override readonly name = 'TimeoutError'
  override readonly kind = 'timeout'
  constructor(
    request: RequestInfo,
    /** The timeout that passed, milliseconds. */
    readonly timeoutMs: number,
  ) {
    super(`${request.method} ${request.path} got no answer within ${timeoutMs} ms`, request, false)
  }
}

/** A 2xx answer that is not JSON, or not the shape the spec documents. */
export class InvalidResponseError extends RinghookClientError {
  /** Always `'InvalidResponseError'`. */
  override readonly name = 'InvalidResponseError'
  /** Always `'invalid_response'`. */
  readonly kind = 'invalid_response'
  constructor(
    message: string,
    /** The request whose answer it was. */
    readonly request: RequestInfo,
    /** The 2xx status answered. */
    readonly status: number,
    /** The service's request id, if it sent one. */
    readonly requestId: string | undefined,
    /** The first 500 characters of the body. */
    readonly bodySnippet: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * The client-side limiter (mode `fail`, or a wait past `maxWaitMs`) refused a request that would
 * exceed a limit; nothing was sent. A 429 from the service is a {@link RateLimitedError}.
 */
export class LocalRateLimitError extends RinghookClientError {
  /** Always `'LocalRateLimitError'`. */
  override readonly name = 'LocalRateLimitError'
  /** Always `'local_rate_limit'`. */
  readonly kind = 'local_rate_limit'
  constructor(
    /** Which limit: the API key's requests, or one user's vibes. */
    readonly scope: 'key' | 'user',
    /** When a slot frees up. */
    readonly retryAfterMs: number,
  ) {
    super(`Client-side rate limit (${scope}) reached; a slot frees in ${retryAfterMs} ms`)
  }
}
