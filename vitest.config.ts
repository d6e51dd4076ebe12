import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const file = (path: string) => fileURLToPath(new URL(`./${path}`, import.meta.url))
const source = (name: string) => file(`packages/${name}/src/index.ts`)
const packages = [
  'core',
  'node',
  'express',
  'hono',
  'redis',
  'postgres',
  'dynamodb',
  'bullmq',
  'client',
  'testing',
  'simulator',
  'simulator-ui',
  'aws-lambda',
  'h3',
  'fastify',
  'koa',
  'nestjs',
  'otel',
  'schemas',
  'capture',
  'users',
  'cloudflare',
]
// The `exports` subpaths beside the packages' root entries.
const subpaths = {
  '@ringhook/core/adapter': 'packages/core/src/adapter.ts',
  '@ringhook/core/api': 'packages/core/src/api.ts',
  '@ringhook/core/store': 'packages/core/src/store.ts',
  '@ringhook/core/signature': 'packages/core/src/signature.ts',
  '@ringhook/core/capture': 'packages/core/src/capture.ts',
  '@ringhook/core/internal': 'packages/core/src/internal.ts',
  '@ringhook/client/store': 'packages/client/src/store.ts',
  '@ringhook/users/store': 'packages/users/src/store.ts',
  '@ringhook/testing/vitest': 'packages/testing/src/vitest/index.ts',
  '@ringhook/simulator/control-api': 'packages/simulator/src/control-api.ts',
  '@ringhook/cli/doctor': 'packages/cli/src/doctor/index.ts',
  '@ringhook/schemas/vectors/signatures.json': 'packages/schemas/vectors/signatures.json',
}

// `RINGHOOK_TEST=long` (pnpm test:long) runs only the `*.long.test.ts` files: runs that take minutes by
// design (fleets, outages, soaks, walks of thousands of users, a million deliveries weighed). `pnpm test`
// leaves them out; CI runs both.
const long = process.env.RINGHOOK_TEST === 'long'

export default defineConfig({
  resolve: {
    // Tests run against the sources; the built output is exercised by the example and runtime suites.
    // Subpaths come first: the alias of a package also matches `<package>/<subpath>`.
    alias: [
      ...Object.entries(subpaths).map(([find, path]) => ({ find, replacement: file(path) })),
      ...packages.map((name) => ({ find: `@ringhook/${name}`, replacement: source(name) })),
    ],
  },
  test: {
    include: ['packages/*/src/**/', 'packages/*/test/**/', 'test/**/', 'bench/src/**/'].map(
      (folder) => `${folder}*${long ? '.long' : ''}.test.ts`,
    ),
    exclude: ['**/node_modules/**', '**/dist/**', ...(long ? [] : ['**/*.long.test.ts'])],
    // Two cores: a couple of workers, and generous timeouts for suites that start servers.
    pool: 'forks',
    // Three files at a time on two cores: most wait on child processes, servers and timers, not on the
    // cores (the quick suite: 4 min 25 s with three, 5 min 17 s with two, in one sitting at load ~6).
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
