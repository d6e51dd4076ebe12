// The Redis store's Lua script is a transcription of `decide`: both run on the same random cases,
// every pair of (stored, seen) stamps a store can meet, and must agree on the verdict and the stamp kept.

import { redisUserStore } from '@ringhook/redis'
import { decide, type Stamp } from '@ringhook/users'
import fc from 'fast-check'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'

const prefix = uniquePrefix('users-script')
let redis: Redis

beforeAll(async () => {
  redis = await connectRedis()
})
afterAll(async () => {
  if (redis) await dropPrefix(redis, prefix)
  redis?.disconnect()
})

const BASE = 1_795_000_000_000
const stamp: fc.Arbitrary<Stamp> = fc.record({
  // Close times, so that ties, whole seconds and the margin all come up.
  at: fc.integer({ min: 0, max: 3000 }).map((ms) => BASE + ms),
  coarse: fc.boolean(),
  cause: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8) as fc.Arbitrary<Stamp['cause']>,
  uncertain: fc.boolean(),
})

describe('the Redis store’s compare-and-set', () => {
  it('decides exactly as `decide` does', async () => {
    const store = redisUserStore({ client: redis, prefix })
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(stamp, { maxLength: 3 }),
        stamp,
        fc.integer({ min: 0, max: 1500 }),
        async (earlier, seen, margin) => {
          const user = `user-${n++}`
          // What a store holds is always what earlier applies left (uncertain ones included).
          let before: Stamp | undefined
          for (const stamp of earlier) before = (await store.apply(user, stamp, margin)).after
          const expected = decide(before, seen, margin)
          const result = await store.apply(user, seen, margin)
          expect(result).toEqual({ verdict: expected.verdict, before, after: expected.next })
          expect(await store.get(user)).toEqual(expected.next)
        },
      ),
      { numRuns: 400 },
    )
  })
})
