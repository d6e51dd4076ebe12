import type { ResolvedOptions } from './options.js'
import { type AnsweredDelivery, isOutlet, type Outlet, type OutletOptions } from './outlet.js'

/** Instrumentation's way out: the observer hears the answer. */
const observerEnd: Outlet = {
  answered: (delivery) => delivery.observer?.end?.(delivery.response.status, delivery.outcome),
}

/**
 * The receiver's outlet: the observer's `end`, then the capture, each on its own (a throwing
 * observer must not cost the capture its record); none when neither is configured.
 */
export function outletOf(options: Pick<ResolvedOptions, 'instrumentation' | 'capture'>): Outlet | undefined {
  // A capture made by createCapture is an outlet; resolveOptions refused any other.
  const capture = isOutlet(options.capture) ? options.capture : undefined
  if (!options.instrumentation) return capture
  if (!capture) return observerEnd
  return {
    answered(delivery: AnsweredDelivery, outletOptions: OutletOptions) {
      try {
        observerEnd.answered(delivery, outletOptions)
      } catch {
        // An instrumentation bug must not turn into a lost record, nor into an exception.
      }
      capture.answered(delivery, outletOptions)
    },
  }
}
