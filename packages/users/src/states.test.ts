// What a stamp records of an event's timestamp and of the API's answer: a whole-second timestamp is
// coarse (the event happened within that second), a refresh's answer never is, and each state the
// API names leads to that state.
import { describe, expect, it } from 'vitest'
import { pack, stampOfApi, stampOfEvent, statusOf, unpack } from './states.js'

describe('stamps', () => {
  it('of an event: coarse for whole seconds, exact with a fraction, none for an unreadable timestamp', () => {
    const at = Date.parse('2026-11-28T10:00:00Z')
    expect(stampOfEvent('2026-11-28T10:00:00Z', 'app.activated')).toEqual({
      at,
      coarse: true,
      cause: expect.any(Number),
      uncertain: false,
    })
    expect(stampOfEvent('2026-11-28T10:00:00.250Z', 'app.activated')).toMatchObject({ at: at + 250, coarse: false })
    expect(stampOfEvent('2026-11-28T10:00:00.2+00:00', 'app.activated')).toMatchObject({ at: at + 200, coarse: false })
    expect(stampOfEvent('yesterday', 'app.activated')).toBeUndefined()
  })

  it('of the API’s answer: exact, certain, in the state it names (absent: uninstalled)', () => {
    const at = Date.parse('2026-11-28T10:00:00.500Z')
    const states = [
      ['active', 'active'],
      ['passive', 'passive'],
      ['inactive', 'inactive'],
      [undefined, 'uninstalled'],
    ] as const
    for (const [said, status] of states) {
      const stamp = stampOfApi(at, said)
      expect([stamp.at, stamp.coarse, stamp.uncertain, statusOf(stamp.cause)]).toEqual([at, false, false, status])
      expect(unpack(pack(stamp))).toEqual(stamp)
    }
  })
})
