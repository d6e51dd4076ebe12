import {
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PermissionDisabledError,
  RateLimitedError,
  type RequestInfo,
  RinghookApiError,
  ServerError,
  UnauthorizedError,
} from './errors.js'
import { parseRetryAfter } from './retry.js'

// The service's own codes (the simulator's), for bodies that carry none.
const DEFAULT_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  429: 'rate_limited',
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id']

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/**
 * Reads `code` and `message` from an error body whose shape the service does not document:
 * `{error: {code, message}}` (the simulator's), `{error: "code", message}`, `{code, message}`,
 * or plain text. Whatever is missing is derived from the status.
 */
export function readErrorBody(status: number, raw: string): { code: string; message: string; body: unknown } {
  let body: unknown = raw
  try {
    body = JSON.parse(raw)
  } catch {
    // Not JSON: the text itself is the message.
  }
  const fallbackCode = DEFAULT_CODES[status] ?? (status >= 500 ? 'server_error' : `http_${status}`)
  if (!isObject(body)) {
    return { code: fallbackCode, message: raw.trim().slice(0, 200) || `HTTP ${status}`, body }
  }
  const nested = isObject(body.error) ? body.error : undefined
  const code = text(nested?.code) ?? text(body.code) ?? text(body.error) ?? fallbackCode
  const message =
    text(nested?.message) ?? text(body.message) ?? text(body.detail) ?? text(body.error_description) ?? code
  return { code, message, body }
}

/** The request id from the usual headers, or from the body. */
export function requestIdOf(headers: Headers, body?: unknown): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name)
    if (value) return value
  }
  if (!isObject(body)) return undefined
  return text(body.request_id) ?? (isObject(body.error) ? text(body.error.request_id) : undefined)
}

/** The typed error for a non-2xx answer. */
export function errorFromResponse(
  response: Response,
  raw: string,
  request: RequestInfo,
  now: number,
): RinghookApiError {
  const { status } = response
  const { code, message, body } = readErrorBody(status, raw)
  const init = { status, code, message, body, request, requestId: requestIdOf(response.headers, body) }
  switch (status) {
    case 400:
      return new InvalidRequestError(init)
    case 401:
      return new UnauthorizedError(init)
    case 403:
      // The code is the documented signal; the raw text catches bodies shaped in ways not foreseen.
      return code === 'permission_disabled' || raw.includes('permission_disabled')
        ? new PermissionDisabledError({ ...init, code: 'permission_disabled' })
        : new ForbiddenError(init)
    case 404:
      return new NotFoundError(init)
    case 429:
      return new RateLimitedError(init, parseRetryAfter(response.headers.get('retry-after'), now))
    default:
      return status >= 500 ? new ServerError(init) : new RinghookApiError(init)
  }
}
