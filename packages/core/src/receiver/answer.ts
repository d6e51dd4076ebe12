import { describe, type ErrorCode, type RinghookError } from '../errors.js'
import { type Exchange, NOT_YET_ANSWERED } from './exchange.js'
import type { DeliveryOutcome } from './instrumentation.js'
import { errorResponse, type WebhookResponse } from './response.js'
import { ANSWERED, type Answered, type Environment } from './stage.js'

export const RETRY_SOON = Object.freeze({ 'retry-after': '1' })
/**
 * Closing: the service retries in a second, and `Connection: close` ends a kept-alive connection
 * after this answer, so the server can stop without cutting off a request sent on it later.
 */
const CLOSING = Object.freeze({ 'retry-after': '1', connection: 'close' })
const NO_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({})

/**
 * Records the delivery's answer and what it came to. The first answer stands: handlers finishing
 * past the deadline are judged, and the claim settled, after the deadline's answer went out.
 */
export function answer(delivery: Exchange, response: WebhookResponse, outcome: DeliveryOutcome): Answered {
  if (delivery.response === NOT_YET_ANSWERED) {
    delivery.response = response
    delivery.outcome = outcome
  }
  return ANSWERED
}

/** Answers with an error code's response. */
export const answerError = (
  delivery: Exchange,
  code: ErrorCode,
  headers?: Readonly<Record<string, string>>,
): Answered => answer(delivery, errorResponse(code, headers), code)

export const shuttingDown = (delivery: Exchange): Answered => answerError(delivery, 'shutting_down', CLOSING)

/** Answers a refused request, and says why in the log (rate-limited: see `logLimit`). */
export function refuse(
  delivery: Exchange,
  env: Environment,
  code: ErrorCode,
  fields: Readonly<Record<string, unknown>> = NO_FIELDS,
  detail?: string,
): Answered {
  env.refusals.write('warn', code, { code, ...fields }, detail ?? `Rejected webhook: ${code}`)
  return answerError(delivery, code)
}

/** Answers a body something read before ringhook ran: the app's misconfiguration, logged with `fix`. */
export function bodyAlreadyParsed(delivery: Exchange, env: Environment, fix: string): Answered {
  env.refusals.write('error', 'body_already_parsed', { code: 'body_already_parsed' }, fix)
  return answerError(delivery, 'body_already_parsed')
}

/**
 * Logs each error and hands it to every `onError` handler, one after another in the order given;
 * the handlers' own failures are only logged.
 */
export async function report(delivery: Exchange, env: Environment, errors: readonly RinghookError[]): Promise<void> {
  const log = delivery.context.logger
  for (const error of errors) {
    log.error({ code: error.code, phase: error.phase, err: describe(error.cause ?? error) }, error.message)
    for (const handler of env.registry.errorHandlers) {
      try {
        await handler(error, delivery.event, delivery.context)
      } catch (failure) {
        log.error({ phase: 'error_handler', err: describe(failure) }, 'An onError handler threw')
      }
    }
  }
}

/** A failure of the pipeline itself (a bug, a throwing observer or logger): answered 500, so the service retries. */
export function internalError(delivery: Exchange, env: Environment, error: unknown): void {
  delivery.response = errorResponse('internal_error')
  delivery.outcome = 'internal_error'
  try {
    env.options.logger.error(
      { code: 'internal_error', err: describe(error) },
      'Unexpected failure in the webhook pipeline (not in a handler): answered 500 internal_error, so the service retries',
    )
  } catch {
    // The logger is what failed: the answer above stands.
  }
}
