import { defineConfig } from 'tsup'

export default defineConfig({
  // The states and the memory store (the root entry), the store contract (`/store`), and the deprecated
  // copies of @ringhook/redis' and @ringhook/postgres' stores (`/redis`, `/postgres`, removed in 0.3.0):
  // those take the app's own ioredis or pg client and import neither, so neither is a dependency.
  entry: {
    index: 'src/index.ts',
    store: 'src/store.ts',
    redis: 'src/redis/index.ts',
    postgres: 'src/postgres/index.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
  clean: true,
  sourcemap: true,
  target: 'es2022',
})
