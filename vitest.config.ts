import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const source = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url))
const packages = ['core', 'node', 'express', 'hono', 'redis', 'client', 'testing', 'simulator-ui']
// The adapters for Fastify, Koa and NestJS.
packages.push('fastify', 'koa', 'nestjs')

export default defineConfig({
  resolve: {
    // Tests run against the sources; the built output is exercised by the example and runtime suites.
    alias: Object.fromEntries(packages.map((name) => [`@ringhook/${name}`, source(name)])),
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Two cores: a couple of workers, and generous timeouts for suites that start servers.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
