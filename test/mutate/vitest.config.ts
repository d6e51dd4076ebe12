// The tests `pnpm mutate` runs against each mutant: the root config's aliases (tests run against
// the sources), only the fast files that prove the mutated rules. Long runs (fleets, soaks,
// 2,000-user walks, the dedup store's memory budget) stay out: each would run again for every
// mutant it covers.
import { defineConfig } from 'vitest/config'
import root from '../../vitest.config.js'

export default defineConfig({
  ...root,
  test: {
    ...root.test,
    include: [
      // The receiver's stages and its vibe budget.
      'packages/core/src/receiver/*.test.ts',
      // The users' states: ordering, refresh, the stores, the states matcher, the example's transaction.
      'packages/users/src/**/*.test.ts',
      'test/users/redis-script.test.ts',
      'test/users/not-found.test.ts',
      'test/testing/states-matcher.test.ts',
      'test/postgres/example-users.test.ts',
      // The limiter and its stores.
      'packages/client/test/limiter.test.ts',
      'packages/client/test/fallback.test.ts',
      'packages/redis/test/limit-store.test.ts',
      'test/redis/limits-outage.test.ts',
      // One contract per store interface, run against every implementation.
      'test/store-contract/**/*.test.ts',
    ],
  },
})
