import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decide } from './order.js'
import { CAUSE, type Cause, type Stamp, statusOf } from './states.js'

const M = 1000
const at = (ms: number, cause: Cause, coarse = false): Stamp => ({ at: ms, coarse, cause, uncertain: false })

describe('decide: two webhooks', () => {
  it('applies the later timestamp and keeps the state against an earlier one', () => {
    const active = at(2000, CAUSE.activated)
    expect(decide(active, at(3000, CAUSE.deactivated), M)).toMatchObject({
      verdict: 'applied',
      next: at(3000, CAUSE.deactivated),
    })
    expect(decide(active, at(1000, CAUSE.deactivated), M)).toEqual({ verdict: 'stale', next: active })
  })

  it('never brings an uninstalled install back with a late event; a later install does', () => {
    const gone = at(5000, CAUSE.uninstalled)
    for (const cause of [CAUSE.installed, CAUSE.activated, CAUSE.passive, CAUSE.deactivated])
      expect(decide(gone, at(4999, cause), M).verdict).toBe('stale')
    expect(decide(gone, at(5001, CAUSE.installed), M)).toMatchObject({
      verdict: 'applied',
      next: { cause: CAUSE.installed },
    })
  })

  it('marks two distinct events of one timestamp uncertain, keeping the later in the spec order meanwhile', () => {
    // activated, passive and deactivated cycle; a reinstall under the same id follows an uninstall.
    const pairs: Array<[Cause, Cause, Cause]> = [
      [CAUSE.deactivated, CAUSE.activated, CAUSE.deactivated],
      [CAUSE.activated, CAUSE.installed, CAUSE.activated],
      [CAUSE.uninstalled, CAUSE.installed, CAUSE.uninstalled],
      [CAUSE.activated, CAUSE.uninstalled, CAUSE.uninstalled],
    ]
    for (const [stored, seen, kept] of pairs)
      expect(decide(at(1000, stored), at(1000, seen), M)).toEqual({
        verdict: 'uncertain',
        next: { at: 1000, coarse: false, cause: kept, uncertain: true },
      })
    expect(decide(at(1000, CAUSE.activated), at(1000, CAUSE.activated), M).verdict).toBe('duplicate')
  })

  it('orders a whole-second timestamp after a precise one only past its second', () => {
    // activated at .300, then deactivated stamped 10:00:00 (cut to the second): not older, a tie.
    expect(decide(at(1300, CAUSE.activated), at(1000, CAUSE.deactivated, true), M)).toMatchObject({
      verdict: 'uncertain',
      next: { cause: CAUSE.deactivated, uncertain: true },
    })
    expect(decide(at(1000, CAUSE.activated, true), at(2000, CAUSE.deactivated), M).verdict).toBe('applied')
    expect(decide(at(1000, CAUSE.activated, true), at(999, CAUSE.deactivated), M).verdict).toBe('stale')
    expect(decide(at(1000, CAUSE.activated, true), at(1500, CAUSE.activated), M).verdict).toBe('uncertain')
  })

  it('keeps a tie uncertain until an event past both of its timestamps', () => {
    // deactivated at .275, then an install stamped 10:00:00 (a reinstall, really at .380): a tie. An
    // uninstall at .276, held back, arrives last: later than .275, not than the whole second.
    const tied = decide(at(1275, CAUSE.deactivated), at(1000, CAUSE.installed, true), M).next
    expect(tied).toEqual({ at: 1000, coarse: true, cause: CAUSE.deactivated, uncertain: true })
    expect(decide(tied, at(1276, CAUSE.uninstalled), M).verdict).toBe('uncertain')
    expect(decide(tied, at(2000, CAUSE.uninstalled), M)).toMatchObject({
      verdict: 'applied',
      next: { uncertain: false },
    })
    // The same the other way round: the whole second stored first, the precise one tied to it.
    expect(decide(at(1000, CAUSE.installed, true), at(1275, CAUSE.deactivated), M).next).toEqual(tied)
  })
})

describe('decide: webhooks and refreshes', () => {
  it('lets a refresh sent a margin after the event win, and a webhook newer than the refresh win', () => {
    const webhook = at(10_000, CAUSE.activated)
    expect(decide(webhook, at(11_001, CAUSE.apiInactive), M).verdict).toBe('applied')
    expect(decide(webhook, at(9_000, CAUSE.apiInactive), M).verdict).toBe('stale')
    const refreshed = at(10_000, CAUSE.apiActive)
    expect(decide(refreshed, at(10_000, CAUSE.deactivated), M).verdict).toBe('applied')
    expect(decide(refreshed, at(8_000, CAUSE.deactivated), M).verdict).toBe('stale')
  })

  it('is uncertain within the margin, and clears it with the next applied refresh', () => {
    const webhook = at(10_000, CAUSE.activated)
    const close = decide(webhook, at(10_500, CAUSE.apiInactive), M)
    expect(decide(at(10_000, CAUSE.activated, true), at(11_500, CAUSE.apiInactive), M).verdict).toBe('uncertain')
    expect(close).toEqual({ verdict: 'uncertain', next: { ...webhook, uncertain: true } })
    expect(decide(close.next, at(11_001, CAUSE.apiInactive), M).next).toEqual(at(11_001, CAUSE.apiInactive))
    expect(decide(at(10_000, CAUSE.apiActive), at(9_500, CAUSE.deactivated), M).verdict).toBe('uncertain')
  })

  it('orders two refreshes by when they were sent', () => {
    expect(decide(at(2000, CAUSE.apiActive), at(3000, CAUSE.apiAbsent), M).verdict).toBe('applied')
    expect(decide(at(2000, CAUSE.apiActive), at(1000, CAUSE.apiAbsent), M).verdict).toBe('stale')
  })
})

// A user's walk as the simulator makes it: each event a state the last allowed, distinct timestamps.
const NEXT: Record<number, Cause[]> = {
  [CAUSE.installed]: [CAUSE.activated, CAUSE.uninstalled],
  [CAUSE.activated]: [CAUSE.passive, CAUSE.deactivated],
  [CAUSE.passive]: [CAUSE.activated, CAUSE.deactivated],
  [CAUSE.deactivated]: [CAUSE.activated, CAUSE.uninstalled],
  [CAUSE.uninstalled]: [CAUSE.installed],
}
const walk = fc
  .array(fc.tuple(fc.nat(1), fc.integer({ min: 1, max: 3000 })), { minLength: 1, maxLength: 12 })
  .map((steps) => {
    const events: Stamp[] = [at(1_000_000, CAUSE.installed)]
    for (const [pick, gap] of steps) {
      const last = events[events.length - 1] as Stamp
      const options = NEXT[last.cause] as Cause[]
      events.push(at(last.at + gap, options[pick % options.length] as Cause))
    }
    return events
  })

describe('decide: any arrival order', () => {
  it('ends at the last event whatever order and copies the deliveries arrive in', () => {
    fc.assert(
      fc.property(
        walk.chain((events) =>
          fc.tuple(fc.constant(events), fc.shuffledSubarray([...events, ...events], { minLength: events.length * 2 })),
        ),
        ([events, arrivals]) => {
          let state: Stamp | undefined
          for (const event of arrivals) state = decide(state, event, M).next
          const last = events[events.length - 1] as Stamp
          expect(state).toEqual(last)
          expect(statusOf((state as Stamp).cause)).toBe(statusOf(last.cause))
        },
      ),
    )
  })
})
