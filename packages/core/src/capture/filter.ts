import type { CapturedDelivery, CaptureOutcome } from './record.js'

/** Which captured deliveries to take; every field given must match. */
export interface CaptureFilter {
  /** The event's name, or any of several. */
  event?: string | readonly string[]
  /** What the delivery came to, or any of several. */
  outcome?: CaptureOutcome | readonly CaptureOutcome[]
  /** Arrived at or after this time. */
  since?: Date | string
  /** Arrived before this time. */
  until?: Date | string
  /** The record's id, or any of several. */
  id?: string | readonly string[]
}

const anyOf = <T>(wanted: T | readonly T[] | undefined, value: T | undefined): boolean =>
  wanted === undefined || (Array.isArray(wanted) ? wanted.includes(value) : wanted === value)

const time = (value: Date | string): number => (typeof value === 'string' ? Date.parse(value) : value.getTime())

/**
 * Whether a record matches every field of the filter: what every capture reader (a file, a Redis
 * stream, a Postgres table) keeps.
 *
 * @example
 * declare const records: CapturedDelivery[]
 * const failedToday = records.filter((record) => matchesCapture(record, { outcome: 'failed', since: '2027-01-15' }))
 */
export function matchesCapture(record: CapturedDelivery, filter: CaptureFilter): boolean {
  const at = Date.parse(record.receivedAt)
  return (
    anyOf(filter.event, record.event) &&
    anyOf(filter.outcome, record.outcome) &&
    anyOf(filter.id, record.id) &&
    (filter.since === undefined || at >= time(filter.since)) &&
    (filter.until === undefined || at < time(filter.until))
  )
}
