import { describe, expect, it } from 'vitest'
import { createMemoryStore } from './memory-store.js'

const reply = { status: 200, body: '{"ok":true}' }

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

  it('never holds more than maxEntries, dropping the oldest', async () => {
    const store = createMemoryStore({ maxEntries: 100 })
    for (let i = 0; i < 1000; i++) await store.claim(`k${i}`, 60_000)
    expect(store.size).toBe(100)
    expect((await store.claim('k999', 1000)).state).toBe('in_flight')
    expect((await store.claim('k0', 1000)).state).toBe('claimed')
  })

  it('evicts by claim order and keeps the bound through releases and claims of the same key', () => {
    const store = createMemoryStore({ maxEntries: 3 })
    const a = store.claim('a', 60_000)
    if (a.state !== 'claimed') throw new Error('expected a claim')
    store.release('a', a.token) // its slot is now stale
    store.claim('a', 60_000) // claimed again: a second slot, the one that counts
    store.claim('b', 60_000)
    store.claim('c', 60_000) // wraps: the stale slot of the first 'a' is dropped, nothing live goes
    expect(store.size).toBe(3)
    expect(store.claim('a', 60_000).state).toBe('in_flight')
    store.claim('d', 60_000) // drops the oldest live claim: 'a'
    expect(store.size).toBe(3)
    expect(store.claim('b', 60_000).state).toBe('in_flight')
    expect(store.claim('a', 60_000).state).toBe('claimed')
  })

  it('answers synchronously', () => {
    const store = createMemoryStore()
    const claim = store.claim('k', 1000)
    expect(claim.state).toBe('claimed')
    if (claim.state === 'claimed') expect(store.complete('k', claim.token, reply, 1000)).toBeUndefined()
    expect(store.claim('k', 1000)).toEqual({ state: 'completed', reply })
  })

  it.each([0, -1, 1.5, Number.NaN])('refuses maxEntries %s', (maxEntries) => {
    expect(() => createMemoryStore({ maxEntries })).toThrow(/maxEntries/)
  })
})
