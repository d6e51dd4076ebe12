// The contract every limit store keeps (`LimitStore` of @ringhook/client): what keeps one API key and
// each user under the service's limits, whichever store counts. No test waits for a window to pass
// but one, and that one for a fraction of a second on a store that keeps a server's time.
import { randomUUID } from 'node:crypto'
import { createRateLimiter, type LimitRules, type LimitStore, LocalRateLimitError } from '@ringhook/client'
import { silentLogger } from '@ringhook/core'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** One open backend: stores on it, its clock, and how to let it go. */
export interface LimitStoreHarness {
  /** `count` handles on one new, empty store (one API key's limits), as that many instances would hold. */
  instances(count: number): LimitStore[]
  /** Lets `ms` pass on the store's clock: an injected clock moves; a server's clock is waited for. */
  pass(ms: number): Promise<void>
  /** Releases the backend's connections and drops what it created. */
  close(): Promise<void>
}

/** A limit store to run the contract on. */
export interface LimitStoreKind {
  name: string
  open(): Promise<LimitStoreHarness>
}

const MINUTE = 60_000
const keyOnly = (limit: number, windowMs = MINUTE): LimitRules => ({ key: { limit, windowMs }, user: false })
const both = (keyLimit: number, userLimit: number): LimitRules => ({
  key: { limit: keyLimit, windowMs: MINUTE },
  user: { limit: userLimit, windowMs: MINUTE },
})
const vibesOnly = (userLimit: number): LimitRules => ({ key: false, user: { limit: userLimit, windowMs: MINUTE } })

/** One decision, refused at once rather than queued. */
const take = (store: LimitStore, rules: LimitRules, user?: string, maxWaitMs = 0) =>
  Promise.resolve(store.take({ ticket: randomUUID(), user, rules, maxWaitMs }))

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work))
}

/** Defines the contract's tests for one kind of limit store, inside the caller's `describe`. */
export function limitStoreContract(kind: LimitStoreKind): void {
  let harness: LimitStoreHarness
  beforeAll(async () => {
    harness = await kind.open()
  })
  afterAll(async () => {
    await harness?.close()
  })
  const fresh = () => harness.instances(1)[0] as LimitStore

  it('grants exactly the limit to instances racing for it, and tells the rest how long to wait', async () => {
    const fleet = harness.instances(3)
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => take(fleet[i % 3] as LimitStore, keyOnly(25))),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(25)
    for (const result of results.filter((result) => !result.ok)) {
      expect(result).toMatchObject({ ok: false, scope: 'key' })
      if (!result.ok) expect(result.waitMs).toBeGreaterThan(MINUTE - 5000)
      if (!result.ok) expect(result.waitMs).toBeLessThanOrEqual(MINUTE)
    }
  })

  it('grants exactly a user’s limit to instances racing for that user', async () => {
    const fleet = harness.instances(3)
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => take(fleet[i % 3] as LimitStore, both(100, 7), 'app/alice')),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(7)
    for (const result of results.filter((result) => !result.ok)) expect(result).toMatchObject({ scope: 'user' })
    expect(await (fleet[1] as LimitStore).remaining('app/alice', { limit: 7, windowMs: MINUTE })).toBe(0)
  })

  it('counts each user apart, and every user’s triggers against the key as well', async () => {
    const store = fresh()
    for (let i = 0; i < 3; i++) expect(await take(store, both(5, 3), 'app/alice')).toEqual({ ok: true })
    expect(await take(store, both(5, 3), 'app/alice')).toMatchObject({ ok: false, scope: 'user' })
    expect(await store.remaining('app/alice', { limit: 3, windowMs: MINUTE })).toBe(0)
    expect(await take(store, both(5, 3), 'app/bob')).toEqual({ ok: true })
    expect(await store.remaining('app/bob', { limit: 3, windowMs: MINUTE })).toBe(2)
    expect(await store.remaining('app/carol', { limit: 3, windowMs: MINUTE })).toBe(3)
    expect(await take(store, both(5, 3), 'app/bob')).toEqual({ ok: true })
    // Five requests: the key is spent, whoever asks next.
    expect(await take(store, both(5, 3), 'app/carol')).toMatchObject({ ok: false, scope: 'key' })
  })

  it('frees a slot one window after it was taken, not before', async () => {
    const store = fresh()
    const rules = keyOnly(1, 300)
    expect(await take(store, rules)).toEqual({ ok: true })
    const refused = await take(store, rules)
    if (refused.ok) throw new Error('a second slot in one window')
    expect(refused.waitMs).toBeGreaterThan(0)
    expect(refused.waitMs).toBeLessThanOrEqual(300)
    await harness.pass(refused.waitMs)
    expect(await take(store, rules)).toEqual({ ok: true })
  })

  it('gives no slot to a key paused after a 429, for anyone, until the pause ends; vibes of gesture replies still go', async () => {
    const [a, b] = harness.instances(2) as [LimitStore, LimitStore]
    await a.pause('key', undefined, MINUTE)
    for (const user of [undefined, 'app/alice']) {
      const refused = await take(b, both(100, 30), user)
      expect(refused).toMatchObject({ ok: false, scope: 'key' })
      if (!refused.ok) expect(refused.waitMs).toBeGreaterThan(MINUTE / 2)
    }
    // A vibe in a webhook's reply does not call the API: the key's pause does not hold it.
    expect(await take(b, vibesOnly(30), 'app/alice')).toEqual({ ok: true })
  })

  it('gives no slot to a user paused after a 429, and holds no one else', async () => {
    const [a, b] = harness.instances(2) as [LimitStore, LimitStore]
    await a.pause('user', 'app/alice', MINUTE)
    for (const rules of [both(100, 30), vibesOnly(30)]) {
      const refused = await take(b, rules, 'app/alice')
      expect(refused).toMatchObject({ ok: false, scope: 'user' })
      if (!refused.ok) expect(refused.waitMs).toBeGreaterThan(MINUTE / 2)
    }
    expect(await b.remaining('app/alice', { limit: 30, windowMs: MINUTE })).toBe(0)
    expect(await take(b, both(100, 30), 'app/bob')).toEqual({ ok: true })
    expect(await take(b, keyOnly(100))).toEqual({ ok: true })
  })

  it('gives slots again once a pause has passed', async () => {
    const store = fresh()
    await store.pause('key', undefined, 300)
    await store.pause('user', 'app/alice', 300)
    expect(await take(store, both(100, 30), 'app/alice')).toMatchObject({ ok: false })
    await harness.pass(300)
    expect(await take(store, both(100, 30), 'app/alice')).toEqual({ ok: true })
  })

  it('lengthens a pause, never shortens it', async () => {
    const store = fresh()
    await store.pause('user', 'app/alice', MINUTE)
    await store.pause('user', 'app/alice', 100)
    await store.pause('key', undefined, MINUTE)
    await store.pause('key', undefined, 100)
    const user = await take(store, vibesOnly(30), 'app/alice')
    const key = await take(store, keyOnly(100))
    for (const refused of [user, key]) {
      expect(refused.ok).toBe(false)
      if (!refused.ok) expect(refused.waitMs).toBeGreaterThan(MINUTE / 2)
    }
  })

  it('tracks two thousand users without disturbing each other: a new user frees no one else’s slots', async () => {
    const store = fresh()
    const users = Array.from({ length: 2000 }, (_, i) => `app/user-${i}`)
    for (let round = 0; round < 2; round++)
      await inBatches(users, 100, async (user) => expect(await take(store, vibesOnly(2), user)).toEqual({ ok: true }))
    // Every user has spent its window, the first ones as much as the last.
    await inBatches(users, 100, async (user) =>
      expect(await take(store, vibesOnly(2), user)).toMatchObject({ ok: false, scope: 'user' }),
    )
  })

  it('lets a waiter that stopped waiting leave its place in line to those behind it', async () => {
    const store = fresh()
    const rules = keyOnly(1, 300)
    expect(await take(store, rules)).toEqual({ ok: true })
    const leaving = randomUUID()
    const queued = await Promise.resolve(store.take({ ticket: leaving, user: undefined, rules, maxWaitMs: 10_000 }))
    expect(queued).toMatchObject({ ok: false, scope: 'key' })
    await store.leave(leaving)
    if (!queued.ok) await harness.pass(queued.waitMs)
    expect(await take(store, rules, undefined, 10_000)).toEqual({ ok: true })
  })

  it('adds slots taken while it was unreachable to its count, if it is shared', async () => {
    const store = fresh()
    const rules = keyOnly(4)
    if (!store.restore) {
      // A store of one process is never unreachable: only a shared one has slots to restore.
      expect(store.shared).toBe(false)
      return
    }
    await store.restore(
      [0, 10, 20].map((ageMs) => ({ ageMs, user: undefined, key: true })),
      rules,
    )
    expect(await take(store, rules)).toEqual({ ok: true })
    expect(await take(store, rules)).toMatchObject({ ok: false, scope: 'key' })
  })

  it('keeps the default safety margin: 1 s past each window with a shared store, none in one process', async () => {
    const store = fresh()
    const limiter = createRateLimiter({
      store,
      mode: 'fail',
      requestsPerKey: { limit: 1, windowMs: 200 },
      vibesPerUser: false,
      fallback: { fleetSize: 1 },
      logger: silentLogger,
    })
    await limiter.acquire()
    const refused = await limiter.acquire().catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(LocalRateLimitError)
    const window = 200 + (store.shared ? 1000 : 0)
    // However busy the machine, less than half a second passed between the two.
    expect((refused as LocalRateLimitError).retryAfterMs).toBeGreaterThan(window - 500)
    expect((refused as LocalRateLimitError).retryAfterMs).toBeLessThanOrEqual(window)
  })
}
