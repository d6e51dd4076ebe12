// The Durable Object limit store in workerd, under the client's limiter in Node: the rules the Redis
// limit store keeps (exact windows across instances, users' vibes, pauses, the line), on the object's clock.
import { randomUUID } from 'node:crypto'
import { createRateLimiter, type LimitStore, LocalRateLimitError, type RateLimitOptions } from '@ringhook/client'
import { silentLogger } from '@ringhook/core'
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

/** One instance's limiter on a shared store. */
const instance = (store: LimitStore, options: RateLimitOptions = {}) =>
  createRateLimiter({ store, fallback: { fleetSize: 3 }, marginMs: 0, logger: silentLogger, ...options })

const refusal = (limiter: ReturnType<typeof instance>, user?: string) =>
  limiter.acquire(user).then(
    () => undefined,
    (error: unknown) => error as LocalRateLimitError,
  )

describe('createDurableLimitStore', () => {
  it('gives exactly the window’s count to instances racing for it, and no more', async () => {
    const [a, b] = fresh()
    const rule = { requestsPerKey: { limit: 100, windowMs: 30_000 }, mode: 'fail' as const }
    const fleet = [instance(a, rule), instance(b, rule), instance(a, rule), instance(b, rule)]
    const results = await Promise.allSettled(
      fleet.flatMap((limiter) => Array.from({ length: 50 }, () => limiter.acquire())),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(100)
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(LocalRateLimitError)
  })

  it('slides on the object’s clock: a slot frees one window after it was taken', async () => {
    const [a, b] = fresh()
    // A window long enough for the twenty round trips through workerd on a loaded machine.
    const rule = { requestsPerKey: { limit: 20, windowMs: 2000 }, mode: 'fail' as const }
    const [one, two] = [instance(a, rule), instance(b, rule)]
    await Promise.all(Array.from({ length: 10 }, () => [one.acquire(), two.acquire()]).flat())
    const refused = await refusal(one)
    expect(refused).toBeInstanceOf(LocalRateLimitError)
    expect(refused?.retryAfterMs).toBeGreaterThan(0)
    expect(refused?.retryAfterMs).toBeLessThanOrEqual(2000)
    await poll('a slot freed', async () => ((await refusal(two)) === undefined ? true : undefined))
  })

  it('counts each user’s vibes across instances, gesture replies and triggers together', async () => {
    const [a, b] = fresh()
    const rule = { vibesPerUser: { limit: 30, windowMs: 60_000 }, mode: 'fail' as const }
    const [one, two] = [instance(a, rule), instance(b, rule)]
    for (let i = 0; i < 15; i++) await one.acquire('app_1/alice')
    for (let i = 0; i < 14; i++) expect(await two.takeVibe('app_1', 'alice')).toBe(true)
    expect(await one.vibesLeft('app_1', 'alice')).toBe(1)
    expect(await two.takeVibe('app_1', 'alice')).toBe(true)
    expect(await two.takeVibe('app_1', 'alice')).toBe(false)
    expect(await refusal(one, 'app_1/alice')).toMatchObject({ scope: 'user' })
    await one.acquire('app_1/bob')
  })

  it('pauses the key for every instance after a 429, and a user’s vibes', async () => {
    const [a, b] = fresh()
    const [one, two] = [instance(a, { mode: 'fail' }), instance(b, { mode: 'fail' })]
    await one.pause('key', undefined, 5000)
    const refused = await refusal(two)
    expect(refused).toMatchObject({ scope: 'key' })
    expect(refused?.retryAfterMs).toBeGreaterThan(4000)
    await two.pause('user', 'app_1/alice', 3000)
    expect(await one.vibesLeft('app_1', 'alice')).toBe(0)
  })

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
