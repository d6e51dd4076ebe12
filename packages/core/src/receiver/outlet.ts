import type { Exchange } from './exchange.js'
import type { Instrumentation } from './instrumentation.js'

/** What an outlet sees of a delivery once its answer is decided. */
export type AnsweredDelivery = Pick<
  Exchange,
  'request' | 'bytes' | 'event' | 'signedAt' | 'receivedAtMs' | 'response' | 'outcome' | 'observer'
>

/**
 * The one way out of the pipeline: once a delivery's answer is decided, the pipeline hands it to
 * its outlet, once. Instrumentation (the observer's `end`) and capture implement it, outside the
 * pipeline. It must not wait (a capture writes later), and a throw is ignored: the answer stands.
 */
export interface Outlet {
  /** `signatureHeader`: the receiver's, in lower case (a capture redacts it). */
  answered(delivery: AnsweredDelivery, options: { readonly signatureHeader: string }): void
}

/** Whether a value is an outlet (a capture made by `createCapture`, of any copy of core). */
export const isOutlet = (value: unknown): value is Outlet =>
  typeof (value as Partial<Outlet> | undefined)?.answered === 'function'

/** The receiver's outlet: the observer's `end`, then the capture, each on its own; none when neither is set. */
export function outletOf(options: { instrumentation?: Instrumentation; capture?: unknown }): Outlet | undefined {
  // A capture made by createCapture is an outlet; resolveOptions refused any other.
  const capture = isOutlet(options.capture) ? options.capture : undefined
  if (!options.instrumentation) return capture
  return {
    answered(delivery, outletOptions) {
      try {
        delivery.observer?.end?.(delivery.response.status, delivery.outcome)
      } catch {
        // An instrumentation bug must cost neither the record nor the answer.
      }
      capture?.answered(delivery, outletOptions)
    },
  }
}

/** Hands an answered delivery to the outlet. Past this point a failure is ignored: what listens must not turn a delivery's answer into an exception. */
export function handOut(
  outlet: Outlet,
  delivery: AnsweredDelivery,
  options: { readonly signatureHeader: string },
): void {
  try {
    outlet.answered(delivery, options)
  } catch {
    // The answer stands.
  }
}
