import { defineConfig } from 'tsup'

export default defineConfig({
  // The states and the memory store (the root entry), and the store contract (`/store`) that the stores
  // of @ringhook/redis, @ringhook/postgres and the others implement.
  entry: {
    index: 'src/index.ts',
    store: 'src/store.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
  clean: true,
  sourcemap: true,
  target: 'es2022',
})
