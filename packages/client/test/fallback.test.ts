import { RinghookConfigError } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { createRateLimiter, type LimitStore, LocalRateLimitError, type RestoredGrant } from '../src/index.js'
import { MemoryLimitStore } from '../src/memory-limit-store.js'
import { fakeClock, memoryLogger } from './world.js'

/** A shared store that counts in memory, and can be made to fail as an unreachable Redis does. */
function flakyStore(clock: ReturnType<typeof fakeClock>) {
  const inner = new MemoryLimitStore(clock)
  const restored: RestoredGrant[][] = []
  const state = { down: false }
  const guard = <T>(work: () => T): T => {
    if (state.down) throw new Error('connect ECONNREFUSED')
    return work()
  }
  const store: LimitStore = {
    shared: true,
    take: (request) => guard(() => inner.take(request)),
    pause: (scope, user, ms) => guard(() => inner.pause(scope, user, ms)),
    remaining: (user, rule) => guard(() => inner.remaining(user, rule)),
    leave: () => guard(() => undefined),
    // As Redis does: nothing to restore sends no command, so it cannot fail.
    restore: async (grants, rules) =>
      grants.length === 0
        ? undefined
        : guard(() => {
            restored.push([...grants])
            for (const grant of grants)
              inner.record(grant.user, { key: grant.key && rules.key, user: rules.user }, clock.now() - grant.ageMs)
          }),
  }
  return { store, state, restored }
}

const rules = { requestsPerKey: { limit: 9, windowMs: 60_000 }, vibesPerUser: false as const, marginMs: 0 }

describe('a shared store’s fallback', () => {
  it('is required with a shared store', () => {
    const clock = fakeClock()
    expect(() => createRateLimiter({ store: flakyStore(clock).store })).toThrow(RinghookConfigError)
    expect(() => createRateLimiter({ store: flakyStore(clock).store, fallback: { share: 0 } })).toThrow(/fleetSize/)
  })

  it('counts alone against its share while the store fails, logs it once, and rejoins with what it took', async () => {
    const clock = fakeClock()
    const logger = memoryLogger()
    const { store, state, restored } = flakyStore(clock)
    const limiter = createRateLimiter({ ...rules, mode: 'fail', store, fallback: { fleetSize: 3 }, logger, clock })
    await limiter.acquire() // one slot through the store, mirrored locally
    state.down = true
    // Share: 3 of 9; one already taken by this instance in this window.
    await limiter.acquire()
    await limiter.acquire()
    await expect(limiter.acquire()).rejects.toBeInstanceOf(LocalRateLimitError)
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1)
    state.down = false
    await clock.sleep(1000) // the next probe
    await limiter.acquire()
    expect(restored).toEqual([
      [
        { ageMs: 1000, user: undefined, key: true },
        { ageMs: 1000, user: undefined, key: true },
      ],
    ])
    // Back with the fleet: 1 + 2 restored + 1 = 4 of 9 taken.
    for (let i = 0; i < 5; i++) await limiter.acquire()
    await expect(limiter.acquire()).rejects.toMatchObject({ scope: 'key' })
    expect(logger.lines.map((line) => line.level)).toEqual(['warn', 'info'])
  })

  it('says nothing more while the store stays down, however often it is asked again', async () => {
    const clock = fakeClock()
    const logger = memoryLogger()
    const { store, state } = flakyStore(clock)
    const limiter = createRateLimiter({ ...rules, mode: 'fail', store, fallback: { share: 1 / 9 }, logger, clock })
    await limiter.acquire()
    state.down = true
    for (let i = 0; i < 5; i++) {
      await expect(limiter.acquire()).rejects.toBeInstanceOf(LocalRateLimitError)
      await clock.sleep(1000)
    }
    expect(logger.lines.map((line) => line.level)).toEqual(['warn'])
  })

  it('keeps answering gesture replies and vibes left from its share', async () => {
    const clock = fakeClock()
    const { store, state } = flakyStore(clock)
    const limiter = createRateLimiter({
      store,
      fallback: { share: 0.5 },
      vibesPerUser: { limit: 4, windowMs: 60_000 },
      logger: memoryLogger(),
      clock,
    })
    state.down = true
    expect(await limiter.vibesLeft('app', 'u')).toBe(2)
    expect(await limiter.takeVibe('app', 'u')).toBe(true)
    expect(await limiter.takeVibe('app', 'u')).toBe(true)
    expect(await limiter.takeVibe('app', 'u')).toBe(false)
    await limiter.pause('user', 'app/u', 5000)
  })
})
