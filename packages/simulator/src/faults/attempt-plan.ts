import type { FaultInjector } from './injector.js'
import type { FaultName, InjectedFault } from './kinds.js'

/** How far off the timestamp header is: inside the spec's 300 s tolerance, and outside it. */
export const SKEW_WITHIN_S = 240
export const SKEW_BEYOND_S = 400
/** A `slow` request reaches the app this long after it was signed, of the 30 s limit (service time). */
export const SLOW_HOLD_MS = 25_000
/** A `burst` posts the attempt this many times at once. */
export const BURST_COPIES = 3

/** What the faults do to one attempt before it is sent. */
export interface AttemptPlan {
  /** Seconds added to the timestamp header (negative: behind). */
  skewSeconds: number
  /** Service time between signing and sending. */
  holdMs: number
  /** How many times the attempt is posted at once. */
  copies: number
  /** The faults injected, for the log. */
  injected: InjectedFault[]
}

/** Draws the faults of attempt `n`; those that cost the attempt only when a retry is left. */
export function planAttempt(faults: FaultInjector, n: number, retryLeft: boolean): AttemptPlan {
  const plan: AttemptPlan = { skewSeconds: 0, holdMs: 0, copies: 1, injected: [] }
  const add = (fault: FaultName, detail: string) => plan.injected.push({ fault, attempt: n, detail })
  if (faults.hits('skew_beyond', retryLeft)) {
    plan.skewSeconds = -SKEW_BEYOND_S
    add('skew_beyond', `timestamp header ${SKEW_BEYOND_S} s behind, beyond the 300 s tolerance: must be refused`)
  } else if (faults.hits('skew_within')) {
    plan.skewSeconds = -SKEW_WITHIN_S
    add('skew_within', `timestamp header ${SKEW_WITHIN_S} s behind, inside the 300 s tolerance: must be accepted`)
  }
  if (faults.hits('slow')) {
    plan.holdMs = SLOW_HOLD_MS
    add(
      'slow',
      `sent ${SLOW_HOLD_MS / 1000} s (scaled) after it was signed: ${30 - SLOW_HOLD_MS / 1000} s of the limit left`,
    )
  }
  if (faults.hits('burst')) {
    plan.copies = BURST_COPIES
    add('burst', `posted ${BURST_COPIES} times at once`)
  }
  return plan
}

/** After a 2xx: whether the service loses the acknowledgement (and regenerates the secret first). */
export function lostAcknowledgement(faults: FaultInjector, n: number, retryLeft: boolean): InjectedFault | null {
  if (faults.hits('rotation', retryLeft))
    return {
      fault: 'rotation',
      attempt: n,
      detail: 'acknowledgement lost, and the secret regenerated before the retry',
    }
  if (faults.hits('lost_ack', retryLeft))
    return { fault: 'lost_ack', attempt: n, detail: 'the app answered 2xx; the service acts as if it timed out' }
  return null
}
