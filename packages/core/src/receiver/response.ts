import { ERRORS, type ErrorCode } from '../errors.js'

/** What an adapter receives from the core: write it back as is. */
export interface WebhookResponse {
  status: number
  headers: Record<string, string>
  body: string
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

/** A response whose body is already JSON text. */
export function rawJsonResponse(status: number, body: string, headers: Record<string, string> = {}): WebhookResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body }
}

/** A JSON response with the standard headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): WebhookResponse {
  return rawJsonResponse(status, JSON.stringify(body), headers)
}

/** The error response for a code: `{ error: { code, message } }`. */
export function errorResponse(code: ErrorCode, headers: Record<string, string> = {}): WebhookResponse {
  const { status, message } = ERRORS[code]
  return jsonResponse(status, { error: { code, message } }, headers)
}
