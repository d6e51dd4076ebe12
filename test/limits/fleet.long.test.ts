// Three instances of examples/broadcast (separate processes) share the shared Redis and one API key,
// driven at ten times the key's rate while ten users gesture, against the simulator's own limits:
// no request is answered 429, no reply's vibe is refused for the user's limit, and the triggers
// the service took reach 90 % of what the key allows in the run. RINGHOOK_FLEET_SECONDS sets its
// length (default 180, the three minutes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../runtimes/built.js'
import { allowedIn, drive, RUN_MS } from './support/drive.js'
import { type Fleet, startFleet, tally } from './support/fleet.js'

assertBuilt('core', 'node', 'client', 'redis', 'users')

let fleet: Fleet

beforeAll(async () => {
  fleet = await startFleet({ size: 3, users: 10, redisUrl: 'redis://127.0.0.1:6379' })
}, 60_000)
afterAll(async () => {
  await fleet?.close()
}, 30_000)

describe('a fleet of three on one key', () => {
  it('keeps the service’s limits together, replies included, and uses the key’s', {
    timeout: RUN_MS + 120_000,
  }, async () => {
    const from = Date.now()
    const driven = await drive(fleet, RUN_MS)
    const seen = tally(fleet, from, from + RUN_MS)
    console.log('fleet run', { runMs: RUN_MS, allowed: allowedIn(RUN_MS), ...seen, broadcasts: driven.statuses })
    expect(driven.unanswered).toBe(0)
    expect(Object.keys(driven.statuses)).toEqual(['202'])
    expect(seen.refused429).toBe(0)
    expect(seen.repliesRateLimited).toBe(0)
    expect(seen.replies).toBeGreaterThan(0)
    expect(seen.triggers).toBeGreaterThanOrEqual(0.9 * allowedIn(RUN_MS))
  })
})
