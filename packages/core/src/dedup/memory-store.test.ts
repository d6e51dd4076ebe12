import { describe, expect, it, vi } from 'vitest'
import { RinghookConfigError } from '../errors.js'
import { type Logger, silentLogger } from '../logger.js'
import * as cost from './memory-cost.js'
import {
  createMemoryStore,
  FORGET_PER_CLAIM,
  FORGOTTEN_REPLY,
  type MemoryStoreOptions,
  REPLY_HORIZON_MS,
} from './memory-store.js'

vi.mock('./memory-cost.js', async (actual) => {
  const real = await actual<typeof import('./memory-cost.js')>()
  return { ...real, characterBytes: vi.fn(real.characterBytes) }
})

const reply = { status: 200, body: '{"ok":true}' }

/** A logger that keeps the codes of its warnings. */
function spyLogger(): Logger & { codes: () => unknown[]; warned: Record<string, unknown>[] } {
  const warned: Record<string, unknown>[] = []
  const logger = { ...silentLogger, warn: (fields: Record<string, unknown>) => void warned.push(fields) }
  return { ...logger, child: () => logger, codes: () => warned.map((fields) => fields.code), warned }
}

function clock() {
  let now = 0
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
  }
}

describe('createMemoryStore', () => {
  it('grants one claim and reports the rest in flight, then completed', async () => {
    const store = createMemoryStore()
    const claims = await Promise.all([store.claim('k', 1000), store.claim('k', 1000), store.claim('k', 1000)])
    expect(claims.map((c) => c.state).sort()).toEqual(['claimed', 'in_flight', 'in_flight'])
    const winner = claims.find((c) => c.state === 'claimed')
    if (winner?.state !== 'claimed') throw new Error('no claim won')
    await store.complete('k', winner.token, reply, 1000)
    expect(await store.claim('k', 1000)).toEqual({ state: 'completed', reply })
  })

  it('lets an in-flight claim lapse, and ignores the old token afterwards', async () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const first = await store.claim('k', 100)
    time.advance(101)
    const second = await store.claim('k', 100)
    expect(second.state).toBe('claimed')
    if (first.state !== 'claimed' || second.state !== 'claimed') throw new Error('unreachable')
    await store.complete('k', first.token, { status: 500, body: 'stale' }, 1000)
    expect((await store.claim('k', 100)).state).toBe('in_flight')
    await store.complete('k', second.token, reply, 1000)
    expect(await store.claim('k', 100)).toEqual({ state: 'completed', reply })
  })

  it('forgets a released claim so a retry can run', async () => {
    const store = createMemoryStore()
    const claim = await store.claim('k', 1000)
    if (claim.state !== 'claimed') throw new Error('unreachable')
    await store.release('k', 'someone-else')
    expect((await store.claim('k', 1000)).state).toBe('in_flight')
    await store.release('k', claim.token)
    expect((await store.claim('k', 1000)).state).toBe('claimed')
  })

  it('completes the claim it has just taken without looking its key up again', () => {
    const store = createMemoryStore()
    const claim = store.claim('k', 1000)
    if (claim.state !== 'claimed') throw new Error('unreachable')
    // The receiver completes right after claiming: the store keeps that claim at hand (one Map
    // lookup fewer a delivery, measured in bench/RESULTS.md).
    const get = vi.spyOn(Map.prototype, 'get')
    try {
      store.complete('k', claim.token, reply, 1000)
      expect(get.mock.calls.map(([key]) => key)).not.toContain('k')
    } finally {
      get.mockRestore()
    }
    expect(store.claim('k', 1000)).toEqual({ state: 'completed', reply })
  })

  it('forgets an expired delivery without looking its key up', () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const claim = store.claim('k', 1000)
    if (claim.state !== 'claimed') throw new Error('unreachable')
    store.complete('k', claim.token, reply, 1000)
    time.advance(2000)
    const get = vi.spyOn(Map.prototype, 'get')
    try {
      store.claim('other', 1000) // sweeps 'k' away
      expect(get.mock.calls.map(([key]) => key)).not.toContain('k')
    } finally {
      get.mockRestore()
    }
    expect(store.size).toBe(1)
  })

  it('completes or releases an older claim all the same, and only with its own token', () => {
    const store = createMemoryStore()
    const first = store.claim('a', 1000)
    const second = store.claim('b', 1000)
    if (first.state !== 'claimed' || second.state !== 'claimed') throw new Error('unreachable')
    store.complete('a', second.token, reply, 1000)
    store.release('b', first.token)
    expect([store.claim('a', 1000).state, store.claim('b', 1000).state]).toEqual(['in_flight', 'in_flight'])
    store.complete('a', first.token, reply, 1000)
    store.release('b', second.token)
    store.complete('b', second.token, reply, 1000)
    expect(store.claim('a', 1000)).toEqual({ state: 'completed', reply })
    expect(store.claim('b', 1000).state).toBe('claimed')
  })

  it('forgets completed deliveries after their ttl', async () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const claim = await store.claim('k', 1000)
    if (claim.state !== 'claimed') throw new Error('unreachable')
    await store.complete('k', claim.token, reply, 5000)
    time.advance(4999)
    expect((await store.claim('k', 1000)).state).toBe('completed')
    time.advance(2)
    expect((await store.claim('k', 1000)).state).toBe('claimed')
  })

  it('keeps a delivery through a burst of 20 000 others inside its window', () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const first = store.claim('replayed', 15_000)
    if (first.state !== 'claimed') throw new Error('unreachable')
    store.complete('replayed', first.token, reply, 15 * 60_000)
    for (let i = 0; i < 20_000; i++) {
      const claim = store.claim(`other-${i}`, 15_000)
      if (claim.state === 'claimed') store.complete(`other-${i}`, claim.token, reply, 15 * 60_000)
    }
    time.advance(14 * 60_000)
    expect(store.claim('replayed', 15_000)).toEqual({ state: 'completed', reply: FORGOTTEN_REPLY })
  })

  it('keeps a reply for the retry horizon, then only a fingerprint until the window ends', () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const vibe = { status: 200, body: '{"success":true,"vibe":{"sequence":[{"type":"tap"}]}}' }
    const claim = store.claim('k', 15_000)
    if (claim.state !== 'claimed') throw new Error('unreachable')
    store.complete('k', claim.token, vibe, 15 * 60_000)
    time.advance(REPLY_HORIZON_MS - 1)
    expect(store.claim('k', 15_000)).toEqual({ state: 'completed', reply: vibe })
    time.advance(2)
    store.claim('other', 15_000) // a claim lets go of the replies whose horizon has passed
    expect([store.size, store.fingerprints]).toEqual([1, 1])
    expect(store.claim('k', 15_000)).toEqual({ state: 'completed', reply: FORGOTTEN_REPLY })
    time.advance(15 * 60_000 - REPLY_HORIZON_MS)
    expect(store.claim('k', 15_000).state).toBe('claimed')
  })

  it('lets a burst push the oldest replies out early, keeping their fingerprints, and refuses nothing', () => {
    const time = clock()
    const logger = spyLogger()
    const store = createMemoryStore({ maxBytes: 16 * 1024, now: time.now, logger })
    const keys = Array.from({ length: 200 }, (_, i) => `k${i}`)
    for (const key of keys) {
      const claim = store.claim(key, 1000)
      if (claim.state !== 'claimed') throw new Error(`${key}: ${claim.state}`)
      store.complete(key, claim.token, reply, 60_000)
      expect(store.bytes).toBeLessThanOrEqual(store.maxBytes)
    }
    expect(store.fingerprints).toBeGreaterThan(150)
    const vibe = { status: 201, body: 'kept' }
    const last = store.claim('last', 1000)
    if (last.state === 'claimed') store.complete('last', last.token, vibe, 60_000)
    // The next claim makes room by letting go of the oldest only, not of the whole second's worth.
    const next = store.claim('next', 1000)
    if (next.state === 'claimed') store.complete('next', next.token, reply, 60_000)
    expect(store.claim('last', 1000)).toEqual({ state: 'completed', reply: vibe })
    expect(store.size).toBeGreaterThan(5)
    for (const key of keys) expect(store.claim(key, 1000).state).toBe('completed')
    expect(store.claim('k0', 1000)).toEqual({ state: 'completed', reply: FORGOTTEN_REPLY })
    // Once a minute at most, however many were let go.
    expect(logger.codes()).toEqual(['replies_forgotten'])
    time.advance(60_000)
    expect(store.claim('k0', 1000).state).toBe('claimed')
  })

  it('shortens the window when even the fingerprints are full, by default, and says so once a minute', () => {
    const time = clock()
    const logger = spyLogger()
    const store = createMemoryStore({ maxBytes: 16 * 1024, now: time.now, logger })
    for (let i = 0; i < 2000; i++) {
      const claim = store.claim(`k${i}`, 1000)
      if (claim.state !== 'claimed') throw new Error(`k${i}: ${claim.state}`)
      store.complete(`k${i}`, claim.token, reply, 15 * 60_000)
    }
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes)
    // The newest are still known; the oldest were forgotten inside their window, as the warning says.
    expect(store.claim('k1999', 1000).state).toBe('completed')
    expect(store.claim('k1700', 1000).state).toBe('completed')
    expect(store.claim('k0', 1000).state).toBe('claimed')
    expect(logger.codes()).toEqual(['replies_forgotten', 'window_shortened'])
    // How much was forgotten, and by how much the window was cut: the oldest had ~15 minutes left.
    const [forgotten, shortened] = logger.warned
    expect(forgotten?.forgotten).toBeGreaterThan(0)
    expect(shortened?.window_cut_s).toBeGreaterThan(890)
    expect(shortened?.window_cut_s).toBeLessThanOrEqual(901)
  })

  it("refuses new deliveries with whenFull: 'refuse' rather than shorten the window, and has room again once it ends", () => {
    const time = clock()
    const store = createMemoryStore({ maxBytes: 16 * 1024, now: time.now, whenFull: 'refuse', logger: silentLogger })
    const kept: string[] = []
    // Bounded: a store that never refuses must fail this test, not run it out of memory.
    for (let i = 0; i < 10_000; i++) {
      const claim = store.claim(`k${i}`, 1000)
      if (claim.state === 'full') break
      if (claim.state !== 'claimed') throw new Error(`unexpected ${claim.state}`)
      store.complete(`k${i}`, claim.token, reply, 60_000)
      kept.push(`k${i}`)
    }
    expect(kept.length).toBeGreaterThan(400)
    expect(kept.length).toBeLessThan(10_000)
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes)
    expect(store.claim('late', 1000)).toEqual({ state: 'full' })
    for (const key of kept) expect(store.claim(key, 1000).state).toBe('completed')
    time.advance(60_000)
    expect(store.claim('late', 1000).state).toBe('claimed')
    expect(store.claim(kept[0] as string, 1000).state).toBe('claimed')
  })

  it('refuses a whenFull it does not know', () => {
    expect(() => createMemoryStore({ whenFull: 'drop' as 'refuse' })).toThrow(/whenFull/)
  })

  it('charges a key by its length, so a budget bounds long keys too', () => {
    const store = createMemoryStore({ maxBytes: 64 * 1024 })
    let held = 0
    while (store.claim(`${'k'.repeat(8_000)}${held}`, 60_000).state === 'claimed') held++
    expect(held).toBeGreaterThan(0)
    expect(held).toBeLessThan(8)
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes)
  })

  it('answers synchronously', () => {
    const store = createMemoryStore()
    const claim = store.claim('k', 1000)
    expect(claim.state).toBe('claimed')
    if (claim.state === 'claimed') expect(store.complete('k', claim.token, reply, 1000)).toBeUndefined()
    expect(store.claim('k', 1000)).toEqual({ state: 'completed', reply })
  })

  it.each([0, -1, 1.5, 1024, Number.NaN, Number.POSITIVE_INFINITY])('refuses maxBytes %s', (maxBytes) => {
    expect(() => createMemoryStore({ maxBytes })).toThrow(RinghookConfigError)
    expect(() => createMemoryStore({ maxBytes })).toThrow(/maxBytes/)
  })

  it('refuses the maxEntries of earlier versions, naming what replaced it', () => {
    expect(() => createMemoryStore({ maxEntries: 100 } as MemoryStoreOptions)).toThrow(/replaced by maxBytes/)
  })

  // The entries forgotten are the oldest, long out of the CPU's caches: reading a key's characters
  // again to uncharge it cost a busy server ~1 µs a delivery. The charge is kept on the entry instead.
  it("reads a key's characters once, when it is claimed, and never again to forget it", () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const measured = vi.mocked(cost.characterBytes)
    measured.mockClear()
    for (let i = 0; i < 100; i++) {
      const claim = store.claim(`key-${i}`, 1000)
      if (claim.state !== 'claimed') throw new Error(claim.state)
      store.complete(`key-${i}`, claim.token, reply, 1000)
    }
    const bytes = store.bytes
    expect(measured).toHaveBeenCalledTimes(100)
    time.advance(5000)
    // One key claimed, then asked for again: each ask forgets a few of the expired hundred.
    for (let i = 0; i < 100 / FORGET_PER_CLAIM; i++) store.claim('after', 1000)
    expect(store.size).toBe(1)
    expect(store.bytes).toBeLessThan(bytes / 5)
    expect(measured).toHaveBeenCalledTimes(101)
  })

  // A busy second's bucket holds tens of thousands of deliveries: forgetting it within one claim
  // took one claim 5-10 ms at 20 000 claims a second on a test clock (bench/HISTORY.md).
  it('forgets at most a few expired deliveries a claim, the oldest first, and keeps ahead of new ones', () => {
    const time = clock()
    const store = createMemoryStore({ now: time.now })
    const EXPIRED = 2500
    // More than one of a bucket's arrays (1,024 entries each), to cross from one to the next.
    for (let i = 0; i < EXPIRED; i++) {
      const claim = store.claim(`old-${i}`, 1000)
      if (claim.state === 'claimed') store.complete(`old-${i}`, claim.token, reply, 1000)
    }
    time.advance(2000)
    const forgotten = vi.spyOn(Map.prototype, 'delete')
    try {
      const claim = store.claim('new-0', 1000)
      const keys = (): unknown[] => forgotten.mock.calls.map(([key]) => key).filter((key) => typeof key === 'string')
      expect(keys()).toEqual(['old-0', 'old-1', 'old-2', 'old-3'])
      if (claim.state === 'claimed') store.complete('new-0', claim.token, reply, 60_000)
      // New deliveries keep coming, one a claim: the expired ones are gone long before as many claims.
      for (let i = 1; i <= EXPIRED / (FORGET_PER_CLAIM - 1); i++) {
        forgotten.mockClear()
        const next = store.claim(`new-${i}`, 1000)
        expect(keys()).toHaveLength(Math.max(0, Math.min(FORGET_PER_CLAIM, EXPIRED - i * FORGET_PER_CLAIM)))
        if (next.state === 'claimed') store.complete(`new-${i}`, next.token, reply, 60_000)
      }
    } finally {
      forgotten.mockRestore()
    }
    expect(store.size).toBe(1 + Math.floor(EXPIRED / (FORGET_PER_CLAIM - 1)))
  })

  it('forgets every expired delivery at once rather than answer full', () => {
    const time = clock()
    const store = createMemoryStore({ maxBytes: 64 * 1024, now: time.now })
    // Enough that the large key below finds no room in the deliveries' half of the budget until
    // the expired ones are all forgotten.
    const held = 90
    for (let i = 0; i < held; i++) {
      const claim = store.claim(`k${i}`, 1000)
      if (claim.state !== 'claimed') throw new Error(claim.state)
      store.complete(`k${i}`, claim.token, reply, 1000)
    }
    time.advance(2000)
    // More room than the few expired deliveries a claim forgets on its own would give.
    const large = store.claim('x'.repeat(8000), 1000)
    expect(large.state).toBe('claimed')
    // Expired, so gone: no fingerprint is kept for them.
    expect([store.size, store.fingerprints]).toEqual([1, 0])
    expect(held).toBeGreaterThan(8 * FORGET_PER_CLAIM)
  })
})
