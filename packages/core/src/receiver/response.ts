import { ERRORS, type ErrorCode } from '../errors.js'

/** What an adapter receives from the core: write it back as is. */
export interface WebhookResponse {
  /** The HTTP status. */
  status: number
  /** Header names in lower case, with their values. */
  headers: Record<string, string>
  /** The body, JSON text. */
  body: string
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })

/** A response whose body is already JSON text. */
export function rawJsonResponse(
  status: number,
  body: string,
  headers?: Readonly<Record<string, string>>,
): WebhookResponse {
  // A fresh object each time: adapters and apps may add their own headers to it.
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : jsonHeaders(), body }
}

const jsonHeaders = (): Record<string, string> => ({
  'content-type': JSON_HEADERS['content-type'],
  'cache-control': JSON_HEADERS['cache-control'],
})

/** A JSON response with the standard headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): WebhookResponse {
  return rawJsonResponse(status, JSON.stringify(body), headers)
}

/** The error response for a code: `{ error: { code, message } }`. */
export function errorResponse(code: ErrorCode, headers?: Readonly<Record<string, string>>): WebhookResponse {
  const { status, message } = ERRORS[code]
  return jsonResponse(status, { error: { code, message } }, headers)
}
