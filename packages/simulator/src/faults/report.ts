import type { Attempt, Delivery } from '../model.js'
import type { InjectedFault } from './kinds.js'

/** A delivery that did not end acknowledged, and why. */
export interface UndeliveredDelivery {
  /** The delivery's id. */
  delivery_id: string
  /** Its webhook's event type. */
  event: Delivery['event']
  /** `failed` (the service gave up) or still `pending`/`retrying`. */
  status: Delivery['status']
  /** How many tries it had. */
  attempts: number
  /** The last try's answer or error, explained. */
  why: string
}

/** A gesture whose tries were acknowledged with different bodies: its vibe changed between retries. */
export interface DifferentReplies {
  /** The gesture delivery's id. */
  delivery_id: string
  /** Each distinct 2xx body, in the order they came. */
  replies: string[]
}

/** One try answered against the rules. */
export interface AttemptProblem {
  /** The delivery's id. */
  delivery_id: string
  /** Its webhook's event type. */
  event: Delivery['event']
  /** Which try (1 for the first). */
  attempt: number
  /** What went wrong. */
  why: string
}

/** How many deliveries ended each way. */
export interface DeliveryCounts {
  /** Every delivery kept. */
  total: number
  /** Acknowledged with a 2xx. */
  delivered: number
  /** Given up after the last retry. */
  failed: number
  /** Waiting for a try or a retry. */
  pending: number
  /** Not sent: the app has no webhook URL. */
  skipped: number
}

/** A fault the report lists, with the delivery it hit. */
export type ReportedFault = InjectedFault & {
  /** The delivery it hit. */
  delivery_id: string
}

/** The service's verdict on a run: `sim.report()`, `GET /_sim/report`. */
export interface SimReport {
  /** True when every list below is empty. */
  ok: boolean
  /** How many deliveries ended each way (skipped ones have no webhook URL and count as neither). */
  counts: DeliveryCounts
  /** Deliveries not acknowledged in the end (a delivered resend counts): given up, or still waiting. */
  undelivered: UndeliveredDelivery[]
  /** Gesture retries (and duplicates) answered with another vibe. */
  different_replies: DifferentReplies[]
  /** Tries not answered within the 30 s limit (a lost acknowledgement is the service's, not counted). */
  late: AttemptProblem[]
  /** A timestamp 400 s off acknowledged (a receiver must refuse it), or 240 s off refused (it must accept). */
  tolerance: AttemptProblem[]
  /** Every fault injected, with the delivery it hit. */
  faults: ReportedFault[]
  /** One line per problem, for a test failure message. */
  problems: string[]
}

/** The service's side of the verdict, from the deliveries kept. */
export function buildReport(deliveries: readonly Delivery[]): SimReport {
  const report: SimReport = {
    ok: true,
    counts: { total: deliveries.length, delivered: 0, failed: 0, pending: 0, skipped: 0 },
    undelivered: [],
    different_replies: [],
    late: [],
    tolerance: [],
    faults: [],
    problems: [],
  }
  const resent = resolvedByResend(deliveries)
  for (const delivery of deliveries) judge(delivery, report, resent.has(delivery.id))
  report.ok = report.problems.length === 0
  return report
}

/** Deliveries a resend (or a resend of a resend) later delivered: the event was acknowledged in the end. */
function resolvedByResend(deliveries: readonly Delivery[]): Set<string> {
  const byId = new Map(deliveries.map((delivery) => [delivery.id, delivery]))
  const resolved = new Set<string>()
  for (const delivery of deliveries) {
    if (delivery.status !== 'delivered') continue
    for (let id = delivery.resend_of; id !== null && !resolved.has(id); id = byId.get(id)?.resend_of ?? null)
      resolved.add(id)
  }
  return resolved
}

function judge(delivery: Delivery, report: SimReport, resolved: boolean): void {
  const { counts } = report
  const status = delivery.status === 'retrying' ? 'pending' : delivery.status
  counts[status]++
  const name = `${delivery.id} (${delivery.event})`
  for (const fault of delivery.faults) report.faults.push({ delivery_id: delivery.id, ...fault })
  if ((status === 'failed' && !resolved) || status === 'pending') {
    const why = describe(delivery.attempts.at(-1))
    report.undelivered.push({
      delivery_id: delivery.id,
      event: delivery.event,
      status: delivery.status,
      attempts: delivery.attempts.length,
      why,
    })
    report.problems.push(`${name} ${status === 'failed' ? 'was given up' : 'is still pending'}: ${why}`)
  }
  const replies = [
    ...new Set(delivery.attempts.filter((a) => a.status !== null && a.status < 300).map((a) => a.reply ?? '')),
  ]
  if (delivery.event === 'gesture' && replies.length > 1) {
    report.different_replies.push({ delivery_id: delivery.id, replies })
    report.problems.push(`${name} was answered with ${replies.length} different bodies: ${replies.join(' / ')}`)
  }
  for (const attempt of delivery.attempts) judgeAttempt(delivery, attempt, report)
}

function judgeAttempt(delivery: Delivery, attempt: Attempt, report: SimReport): void {
  const ref = { delivery_id: delivery.id, event: delivery.event, attempt: attempt.attempt }
  const name = `${delivery.id} (${delivery.event}) attempt ${attempt.attempt}`
  const injected = delivery.faults.filter((fault) => fault.attempt === attempt.attempt).map((fault) => fault.fault)
  if (attempt.outcome === 'timeout' && attempt.fault === undefined) {
    report.late.push({ ...ref, why: attempt.error ?? 'no answer in time' })
    report.problems.push(`${name} was not answered within the limit: ${attempt.error ?? ''}`)
  }
  const acknowledged = attempt.status !== null && attempt.status < 300
  if (injected.includes('skew_beyond') && acknowledged && attempt.fault !== 'duplicate') {
    const why = 'acknowledged a timestamp 400 s off: the receiver does not check the 300 s tolerance'
    report.tolerance.push({ ...ref, why })
    report.problems.push(`${name} ${why}`)
  }
  if (injected.includes('skew_within') && attempt.status === 401) {
    const why = 'refused a timestamp 240 s off, inside the 300 s tolerance: the receiver is too strict'
    report.tolerance.push({ ...ref, why })
    report.problems.push(`${name} ${why}`)
  }
}

function describe(attempt: Attempt | undefined): string {
  if (!attempt) return 'not tried yet'
  const tries = `after ${attempt.attempt} attempt${attempt.attempt === 1 ? '' : 's'}`
  if (attempt.status === null) return `${attempt.error ?? attempt.outcome} ${tries}`
  // The note is the log's explanation: the error code, its meaning and fix, or a regeneration.
  return `${attempt.status} ${tries}${attempt.note ? `: ${attempt.note}` : ''}`
}
