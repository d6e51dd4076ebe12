import { ERRORS, type ErrorCode } from '../errors.js'
import type { DeliveryOutcome } from './instrumentation.js'
import { errorResponse, type WebhookResponse } from './response.js'

/** Marks a reply replayed to a duplicate delivery. */
export const DUPLICATE_HEADER = 'x-ringhook-duplicate'

/** Each error code's body: `errorResponse` writes the same text for a code every time. */
let codeByBody: ReadonlyMap<string, ErrorCode> | undefined

/**
 * The outcome of a delivery, read back from the answer the pipeline gave, so that what is reported
 * can never disagree with what was sent: the duplicate marker, a 2xx, or the error code in the body.
 */
export function outcomeOf(response: WebhookResponse): DeliveryOutcome {
  if (response.status < 300) return response.headers[DUPLICATE_HEADER] === 'true' ? 'duplicate' : 'ok'
  codeByBody ??= new Map(Object.keys(ERRORS).map((code) => [errorResponse(code as ErrorCode).body, code as ErrorCode]))
  // Every other answer is written by `errorResponse`; a body it did not write is a failure all the same.
  return codeByBody.get(response.body) ?? 'handler_error'
}
