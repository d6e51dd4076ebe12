// The Durable Object users' store in workerd beyond the users' state store contract: the ordering rule
// exactly as `decide` gives it over random stamps, odd user ids counted and paged as the memory store has them.
import { randomUUID } from 'node:crypto'
import { decide, memoryUserStore, type Stamp, type UserStatus, type UserStore } from '@ringhook/users'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userStore } from './support/stores.js'
import { startWorkerd, type Workerd } from './support/workerd.js'

let workerd: Workerd
beforeAll(async () => {
  workerd = await startWorkerd()
})
afterAll(() => workerd?.dispose())

/** A store of its own (its objects named apart from every other test's), as isolate a and b hold it. */
const fresh = (shards = 4) => {
  const options = { shards, prefix: `users-${randomUUID()}:` }
  return [userStore(workerd, 'a', options), userStore(workerd, 'b', options)] as const
}

const BASE = 1_795_000_000_000
const stamp: fc.Arbitrary<Stamp> = fc.record({
  // Close times, so that ties, whole seconds and the margin all come up.
  at: fc.integer({ min: 0, max: 3000 }).map((ms) => BASE + ms),
  coarse: fc.boolean(),
  cause: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8) as fc.Arbitrary<Stamp['cause']>,
  uncertain: fc.boolean(),
})

const webhook = (at: number, cause: Stamp['cause']): Stamp => ({
  at: BASE + at,
  coarse: false,
  cause,
  uncertain: false,
})

async function collect(store: UserStore, status: UserStatus, size: number) {
  const users: Array<readonly [string, Stamp]> = []
  for await (const page of store.pages(status, size)) users.push(...page)
  return users.sort(([a], [b]) => (a < b ? -1 : 1))
}

describe('durableUserStore', () => {
  it('decides exactly as `decide` does, and keeps what it decided', async () => {
    const [a, b] = fresh()
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(stamp, { maxLength: 3 }),
        stamp,
        fc.integer({ min: 0, max: 1500 }),
        async (earlier, seen, margin) => {
          const user = `user-${n++}`
          let before: Stamp | undefined
          for (const stamp of earlier) before = (await a.apply(user, stamp, margin)).after
          const expected = decide(before, seen, margin)
          expect(await b.apply(user, seen, margin)).toEqual({ verdict: expected.verdict, before, after: expected.next })
          expect(await a.get(user)).toEqual(expected.next)
        },
      ),
      // Each case is up to five round trips into workerd: fewer cases than the Redis script's 400.
      { numRuns: 100 },
    )
  }, 60_000)

  it('counts and pages users across its shards as the memory store does', async () => {
    const [store] = fresh(4)
    const memory = memoryUserStore()
    const ids = [
      'plain',
      'Grüße 🛎️',
      'with\u0000nul',
      `${'x'.repeat(2048)}`,
      ...Array.from({ length: 40 }, (_, i) => `u${i}`),
    ]
    for (const [i, id] of ids.entries()) {
      const seen = webhook(i * 10, (i % 9) as Stamp['cause'])
      await store.apply(id, seen, 1000)
      await memory.apply(id, seen, 1000)
    }
    expect(await store.count()).toEqual(await memory.count())
    for (const status of ['active', 'passive', 'inactive', 'uninstalled'] as const) {
      expect(await collect(store, status, 3)).toEqual(await collect(memory, status, 1000))
    }
  })
})
