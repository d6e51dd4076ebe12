import type { Clock } from '@ringhook/client'

/** A clock that moves only when told: a store's windows pass without the test waiting. */
export function manualClock(start = Date.UTC(2027, 0, 15, 8)): Clock & { advance(ms: number): void } {
  let now = start
  return {
    now: () => now,
    advance: (ms) => {
      now += ms
    },
    sleep: async (ms, signal) => {
      signal?.throwIfAborted()
      now += ms
    },
  }
}
