// The Durable Object limit store in workerd beyond the limit store contract (test/store-contract/):
// the line of waiters across isolates, a place that lapses, slots restored within their window only.
import { randomUUID } from 'node:crypto'
import type { LimitStore } from '@ringhook/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { limitStore } from './support/stores.js'
import { startWorkerd, type Workerd } from './support/workerd.js'

let workerd: Workerd
beforeAll(async () => {
  workerd = await startWorkerd()
})
afterAll(() => workerd?.dispose())

/** One API key's store (an object of its own), as isolate a and b hold it. */
const fresh = (): [LimitStore, LimitStore] => {
  const options = { name: `limits-${randomUUID()}` }
  return [limitStore(workerd, 'a', options), limitStore(workerd, 'b', options)]
}

describe('createDurableLimitStore', () => {
  it('serves waiters from both isolates in the order they arrived', async () => {
    const [a, b] = fresh()
    const rules = { key: { limit: 1, windowMs: 300 }, user: false as const }
    const take = (store: LimitStore, ticket: string) =>
      store.take({ ticket, user: undefined, rules, maxWaitMs: 10_000 })
    expect(await take(a, 'first')).toEqual({ ok: true })
    const taken = Date.now()
    for (const [store, ticket] of [
      [a, 'C'],
      [b, 'A'],
      [a, 'B'],
    ] as const)
      expect(await take(store, ticket)).toMatchObject({ ok: false, scope: 'key' })
    // The object's clock is this machine's: once the window has passed here, the slot is free there.
    await poll('the slot to free', async () => (Date.now() > taken + 350 ? true : undefined))
    expect(await take(b, 'B')).toMatchObject({ ok: false })
    expect(await take(a, 'A')).toMatchObject({ ok: false })
    expect(await take(b, 'C')).toEqual({ ok: true })
    const waitOfB = (await take(a, 'B')) as { waitMs: number }
    const waitOfA = (await take(b, 'A')) as { waitMs: number }
    expect(waitOfA.waitMs).toBeLessThanOrEqual(waitOfB.waitMs)
  })

  it('lets a waiter’s place lapse when its instance never comes back', async () => {
    const [a, b] = fresh()
    const rules = { key: { limit: 1, windowMs: 200 }, user: false as const }
    expect(await a.take({ ticket: 'first', user: undefined, rules, maxWaitMs: 10_000 })).toEqual({ ok: true })
    expect(await a.take({ ticket: 'dead', user: undefined, rules, maxWaitMs: 10_000 })).toMatchObject({ ok: false })
    const started = Date.now()
    await poll('the dead place lapsed', async () => {
      const result = await b.take({ ticket: 'alive', user: undefined, rules, maxWaitMs: 10_000 })
      return result.ok || undefined
    })
    expect(Date.now() - started).toBeLessThan(200 + 2000 + 500)
  })

  it('counts slots restored from a fallback, within their window only', async () => {
    const [a, b] = fresh()
    const rules = { key: { limit: 3, windowMs: 60_000 }, user: { limit: 2, windowMs: 60_000 } }
    await a.restore?.(
      [
        { ageMs: 1_000, user: 'app_1/alice', key: true },
        { ageMs: 2_000, user: undefined, key: true },
        { ageMs: 120_000, user: 'app_1/alice', key: true },
      ],
      rules,
    )
    expect(await b.remaining('app_1/alice', { limit: 2, windowMs: 60_000 })).toBe(1)
    expect(await b.take({ ticket: randomUUID(), user: 'app_1/bob', rules, maxWaitMs: 0 })).toEqual({ ok: true })
    expect(await b.take({ ticket: randomUUID(), user: 'app_1/bob', rules, maxWaitMs: 0 })).toMatchObject({
      ok: false,
      scope: 'key',
    })
  })
})
