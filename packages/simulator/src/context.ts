import type { Timers, TimeSource } from './clock.js'
import type { Ids } from './ids.js'
import type { SimLog } from './log.js'
import type { Settings } from './model.js'
import type { SlidingWindow } from './rate-limit.js'
import type { SimState } from './state.js'

/** What every part of the simulator shares. */
export interface SimContext {
  state: SimState
  log: SimLog
  ids: Ids
  clock: TimeSource
  timers: Timers
  settings: Settings
  /** 100 requests per 60 s, per API key. */
  requestLimit: SlidingWindow
  /** 30 vibes per minute, per user. */
  vibeLimit: SlidingWindow
  /** The clock's time as ISO 8601. */
  iso(): string
  /**
   * A webhook payload timestamp, strictly later than the previous one, so two events in the same
   * millisecond are never mistaken for a retry by a receiver's deduplication.
   */
  eventTimestamp(): string
}

export function timestamps(clock: TimeSource): { iso: () => string; eventTimestamp: () => string } {
  let last = 0
  return {
    iso: () => new Date(clock()).toISOString(),
    eventTimestamp: () => {
      last = Math.max(clock(), last + 1)
      return new Date(last).toISOString()
    },
  }
}
