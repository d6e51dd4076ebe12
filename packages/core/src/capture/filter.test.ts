import { describe, expect, it } from 'vitest'
import { type CaptureFilter, matchesCapture } from './filter.js'
import type { CapturedDelivery } from './record.js'

const record = (id: string, receivedAt: string, event: string | undefined, outcome: CapturedDelivery['outcome']) =>
  ({
    v: 1,
    id,
    receivedAt,
    ...(event === undefined ? {} : { event }),
    request: { method: 'POST', headers: {}, body: '{}', encoding: 'utf8', bytes: 2 },
    answer: { status: 200, headers: {}, body: '' },
    outcome,
  }) satisfies CapturedDelivery

const records = [
  record('a', '2027-01-15T08:00:00.000Z', 'gesture', 'accepted'),
  record('b', '2027-01-15T08:00:01.000Z', 'gesture', 'failed'),
  record('c', '2027-01-15T08:00:02.000Z', undefined, 'refused'),
  record('d', '2027-01-15T08:00:03.000Z', 'notification.responded', 'duplicate'),
]
const ids = (filter: CaptureFilter) => records.filter((r) => matchesCapture(r, filter)).map((r) => r.id)

describe('matchesCapture', () => {
  it('keeps everything for an empty filter', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd'])
  })

  it('matches one value or any of several, and no record without an event to an event', () => {
    expect(ids({ event: 'gesture' })).toEqual(['a', 'b'])
    expect(ids({ event: ['gesture', 'notification.responded'] })).toEqual(['a', 'b', 'd'])
    expect(ids({ outcome: ['refused', 'duplicate'] })).toEqual(['c', 'd'])
    expect(ids({ id: 'c' })).toEqual(['c'])
    expect(ids({ id: [] })).toEqual([])
  })

  it('takes since inclusive and until exclusive, as text or Date', () => {
    expect(ids({ since: '2027-01-15T08:00:01Z', until: new Date('2027-01-15T08:00:03Z') })).toEqual(['b', 'c'])
  })

  it('needs every field given to match', () => {
    expect(ids({ event: 'gesture', outcome: 'failed', since: '2027-01-15T08:00:00Z' })).toEqual(['b'])
  })
})
