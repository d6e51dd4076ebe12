// `pnpm mutate`: StrykerJS over the rules the newest features rest on. Each mutant (one small
// change to the code) runs the tests that cover it (test/mutate/vitest.config.ts); a mutant no
// test fails on is a rule no test pins. The report goes to reports/mutation/ (gitignored).
// docs/testing.md says how to read it and lists the survivors.

import { createRequire } from 'node:module'

// pnpm keeps the runner out of Stryker's own node_modules, where it looks for plugins: named by path.
const resolve = createRequire(import.meta.url).resolve

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: [resolve('@stryker-mutator/vitest-runner')],
  vitest: { configFile: 'test/mutate/vitest.config.ts' },
  mutate: [
    'packages/core/src/receiver/stages/*.ts',
    'packages/core/src/receiver/vibe-budget.ts',
    'packages/users/src/**/*.ts',
    '!packages/users/src/**/*.test.ts',
    'packages/client/src/memory-limit-store.ts',
    'packages/client/src/limiter.ts',
    'packages/redis/src/limit-store.ts',
    'packages/redis/src/limit-scripts.ts',
    'packages/redis/src/user-store.ts',
    'packages/redis/src/user-script.ts',
    'packages/postgres/src/user-store.ts',
  ],
  // Only the tests that cover a mutant run for it.
  coverageAnalysis: 'perTest',
  // Two cores: two sandboxes at most.
  concurrency: 2,
  // Mutants of module-level constants need every test file reloaded for each: slow, and rarely found.
  ignoreStatic: true,
  timeoutMS: 5_000,
  reporters: ['progress', 'clear-text', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['reports', 'docs/api', 'bench/.tmp', 'coverage', 'test-results'],
  thresholds: { high: 90, low: 85, break: null },
}
