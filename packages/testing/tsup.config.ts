import { defineConfig } from 'tsup'

export default defineConfig({
  // The helpers (the root entry) and the vitest matchers (`/vitest`).
  entry: { index: 'src/index.ts', vitest: 'src/vitest/index.ts' },
  // The vitest entry extends the app's own vitest (an optional peer), never a bundled copy.
  external: ['vitest'],
  format: ['esm', 'cjs'],
  // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
  clean: true,
  sourcemap: true,
  target: 'es2022',
})
