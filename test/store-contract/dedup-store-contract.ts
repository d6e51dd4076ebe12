// The contract every dedup store keeps, because the receiver relies on nothing else. A store is
// used as two "instances" sharing state: one object in memory, two connections to one Redis.
import { randomUUID } from 'node:crypto'
import type { ClaimResult, DedupStore, StoredReply } from '@ringhook/core/store'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'

/** One open backend: pairs of handles on it, and how to let it go. */
export interface DedupStoreHarness {
  /** Two handles on one shared store, as two receiver instances would hold. */
  pair(): [DedupStore, DedupStore]
  /** Releases the backend's connections and drops what it created. */
  close(): Promise<void>
}

/** A dedup store to run the contract on. */
export interface DedupStoreKind {
  name: string
  open(): Promise<DedupStoreHarness>
}

const MINUTE = 60_000
const vibeReply: StoredReply = {
  status: 200,
  body: JSON.stringify({ success: true, vibe: { sequence: [{ type: 'tap' }], message: 'Grüße "aus" 🛎️\n' } }),
}

function token(claim: ClaimResult): string {
  if (claim.state !== 'claimed') throw new Error(`expected a claim, got ${claim.state}`)
  return claim.token
}

/** Claims `key` until the store grants it, that is once the entry there has lapsed. */
const claimOnceLapsed = (store: DedupStore, key: string) =>
  poll(`${key} to lapse`, async () => {
    const claim = await store.claim(key, MINUTE)
    return claim.state === 'claimed' ? claim : undefined
  })

/** Defines the contract's tests for one kind of dedup store, inside the caller's `describe`. */
export function dedupStoreContract(kind: DedupStoreKind): void {
  let harness: DedupStoreHarness
  beforeAll(async () => {
    harness = await kind.open()
  })
  afterAll(async () => {
    await harness?.close()
  })
  const pair = () => harness.pair()

  it('grants exactly one of many concurrent claims from two instances', async () => {
    const [a, b] = pair()
    const key = randomUUID()
    const claims = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).claim(key, MINUTE)))
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1)
    expect(claims.filter((c) => c.state === 'in_flight')).toHaveLength(23)
  })

  it('gives every claim its own token', async () => {
    const [a, b] = pair()
    const tokens = await Promise.all([a.claim(randomUUID(), MINUTE), b.claim(randomUUID(), MINUTE)])
    expect(new Set(tokens.map(token)).size).toBe(2)
  })

  it('returns the stored reply, byte for byte, to every duplicate on either instance', async () => {
    const [a, b] = pair()
    const key = randomUUID()
    await a.complete(key, token(await a.claim(key, MINUTE)), vibeReply, MINUTE)
    const duplicates = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claim(key, MINUTE)))
    for (const duplicate of duplicates) expect(duplicate).toEqual({ state: 'completed', reply: vibeReply })
  })

  it('keeps replies of every status and an empty body', async () => {
    const [a, b] = pair()
    for (const reply of [
      { status: 202, body: '' },
      { status: 200, body: '{"ok":true}' },
    ]) {
      const key = randomUUID()
      await a.complete(key, token(await a.claim(key, MINUTE)), reply, MINUTE)
      expect(await b.claim(key, MINUTE)).toEqual({ state: 'completed', reply })
    }
  })

  it('releases a claim so that a retry, on any instance, runs it again', async () => {
    const [a, b] = pair()
    const key = randomUUID()
    const first = token(await a.claim(key, MINUTE))
    expect(await b.claim(key, MINUTE)).toEqual({ state: 'in_flight' })
    await a.release(key, first)
    const second = token(await b.claim(key, MINUTE))
    expect(second).not.toBe(first)
  })

  it('ignores complete and release from a token that does not own the key', async () => {
    const [a, b] = pair()
    const key = randomUUID()
    const owner = token(await a.claim(key, MINUTE))
    await b.complete(key, randomUUID(), { status: 200, body: 'forged' }, MINUTE)
    await b.release(key, randomUUID())
    expect(await b.claim(key, MINUTE)).toEqual({ state: 'in_flight' })
    await a.complete(key, owner, vibeReply, MINUTE)
    await b.release(key, randomUUID())
    expect(await b.claim(key, MINUTE)).toEqual({ state: 'completed', reply: vibeReply })
  })

  it('lets an in-flight claim lapse, after which its old owner can no longer settle it', async () => {
    const [a, b] = pair()
    const key = randomUUID()
    const dead = token(await a.claim(key, 300))
    expect(await b.claim(key, MINUTE)).toEqual({ state: 'in_flight' })
    const successor = token(await claimOnceLapsed(b, key))
    await a.complete(key, dead, { status: 200, body: 'stale' }, MINUTE)
    await a.release(key, dead)
    expect(await a.claim(key, MINUTE)).toEqual({ state: 'in_flight' })
    await b.complete(key, successor, vibeReply, MINUTE)
    expect(await a.claim(key, MINUTE)).toEqual({ state: 'completed', reply: vibeReply })
  })

  it('keeps a completed delivery for the completed ttl, not the in-flight one, then forgets it', async () => {
    const [a, b] = pair()
    const kept = randomUUID()
    const forgotten = randomUUID()
    await a.complete(kept, token(await a.claim(kept, 250)), vibeReply, MINUTE)
    await a.complete(forgotten, token(await a.claim(forgotten, MINUTE)), vibeReply, 300)
    expect((await b.claim(forgotten, MINUTE)).state).toBe('completed')
    await claimOnceLapsed(b, forgotten)
    // `forgotten` lapsed 300 ms after `kept` was completed: past kept's in-flight ttl of 250 ms.
    expect(await b.claim(kept, MINUTE)).toEqual({ state: 'completed', reply: vibeReply })
  })

  it('keeps deliveries apart', async () => {
    const [a, b] = pair()
    const [one, two] = [randomUUID(), randomUUID()]
    const claimOfOne = token(await a.claim(one, MINUTE))
    const claimOfTwo = token(await b.claim(two, MINUTE))
    await a.complete(one, claimOfOne, vibeReply, MINUTE)
    expect(await b.claim(two, MINUTE)).toEqual({ state: 'in_flight' })
    await b.release(two, claimOfTwo)
    expect(await a.claim(one, MINUTE)).toEqual({ state: 'completed', reply: vibeReply })
  })

  it('keeps two hundred deliveries apart, each claimed from two instances at once', async () => {
    const [a, b] = pair()
    const keys = Array.from({ length: 200 }, () => randomUUID())
    const replyOf = (i: number): StoredReply => ({ status: 200, body: String(i) })
    // A few at a time: an inbox's claim holds a connection until it is settled.
    await inBatches(keys, 20, async (key, i) => {
      const claims = await Promise.all([a.claim(key, MINUTE), b.claim(key, MINUTE)])
      expect(claims.map((claim) => claim.state).sort()).toEqual(['claimed', 'in_flight'])
      const mine = claims[0]?.state === 'claimed' ? 0 : 1
      const owner = mine === 0 ? a : b
      if (i % 2 === 0) await owner.complete(key, token(claims[mine] as ClaimResult), replyOf(i), MINUTE)
      else await owner.release(key, token(claims[mine] as ClaimResult))
    })
    await inBatches(keys, 20, async (key, i) => {
      const claim = await (i % 4 < 2 ? a : b).claim(key, MINUTE)
      if (i % 2 === 0) return expect(claim).toEqual({ state: 'completed', reply: replyOf(i) })
      await (i % 4 < 2 ? a : b).release(key, token(claim))
    })
  })
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < items.length; i += width)
    await Promise.all(items.slice(i, i + width).map((item, j) => work(item, i + j)))
}
