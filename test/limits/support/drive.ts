// Drives a fleet the way the issue says: broadcasts at ten times the rate the key allows, while
// every user gestures, for RINGHOOK_FLEET_SECONDS (default 180). Everything is paced by timers on
// purpose: the load is what is being tested, and a fleet is never waited on here.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Fleet } from './fleet.js'

/** The service's limits, as the simulator enforces them. */
export const KEY_LIMIT = 100
export const WINDOW_MS = 60_000

/** How long a run lasts: the three minutes unless the environment says otherwise. */
export const RUN_MS = Number(process.env.RINGHOOK_FLEET_SECONDS ?? 180) * 1000

/** Requests the key's limit allows in `ms`, from a standing start: a full window's count each window begun. */
export const allowedIn = (ms: number): number => KEY_LIMIT * Math.ceil(ms / WINDOW_MS)

export interface Drive {
  /** Broadcasts answered, by status. */
  statuses: Record<number, number>
  /** Broadcast requests that got no answer at all. */
  unanswered: number
}

/** Drives `fleet` for `ms`; `during(elapsedMs)` is called every second (to stop Redis, say). */
export async function drive(fleet: Fleet, ms: number, during?: (elapsedMs: number) => Promise<void>): Promise<Drive> {
  const result: Drive = { statuses: {}, unanswered: 0 }
  const started = Date.now()
  const until = started + ms
  // Ten times the key's rate in triggers: each broadcast is one trigger per active user.
  const broadcastEveryMs = (WINDOW_MS / KEY_LIMIT / 10) * fleet.users.length
  const pending: Promise<void>[] = []
  const broadcasts = (async () => {
    for (let n = 0; Date.now() < until; n++) {
      pending.push(
        fleet
          .broadcast(`Broadcast ${n}`)
          .then((status) => {
            result.statuses[status] = (result.statuses[status] ?? 0) + 1
          })
          .catch(() => {
            result.unanswered++
          }),
      )
      await sleep(broadcastEveryMs)
    }
  })()
  // Each user gestures every 5 s (12 a minute), staggered.
  const gestures = fleet.users.map(async (user, index) => {
    await sleep((index * 5000) / fleet.users.length)
    while (Date.now() < until) {
      void fleet.sim.gesture(user, 'double_tap').catch(() => undefined)
      await sleep(5000)
    }
  })
  const ticks = (async () => {
    while (Date.now() < until) {
      await sleep(1000)
      await during?.(Date.now() - started)
    }
  })()
  await Promise.all([broadcasts, ticks, ...gestures])
  await Promise.all(pending)
  return result
}
