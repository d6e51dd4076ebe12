import type { RinghookError } from '../errors.js'
import { describe } from './answer.js'
import type { Delivery, Environment } from './delivery.js'

/** Logs an error and hands it to every `onError` handler; their own failures are only logged. */
export async function report(delivery: Delivery, env: Environment, error: RinghookError): Promise<void> {
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
export async function reportAll(delivery: Delivery, env: Environment, errors: readonly RinghookError[]): Promise<void> {
  for (const error of errors) await report(delivery, env, error)
}
