import { describe, type RinghookError } from '../errors.js'
import type { Exchange } from './exchange.js'
import type { Environment } from './stage.js'

/** Logs an error and hands it to every `onError` handler; their own failures are only logged. */
export async function report(delivery: Exchange, env: Environment, error: RinghookError): Promise<void> {
  const log = delivery.context.logger
  log.error({ code: error.code, phase: error.phase, err: describe(error.cause ?? error) }, error.message)
  for (const handler of env.registry.errorHandlers) {
    try {
      await handler(error, delivery.event, delivery.context)
    } catch (failure) {
      log.error({ phase: 'error_handler', err: describe(failure) }, 'An onError handler threw')
    }
  }
}

/** Reports errors one after another, in the order given. */
export async function reportAll(delivery: Exchange, env: Environment, errors: readonly RinghookError[]): Promise<void> {
  for (const error of errors) await report(delivery, env, error)
}
