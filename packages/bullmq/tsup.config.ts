import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
    clean: true,
    sourcemap: true,
    target: 'es2022',
  },
  {
    // The deprecated `ringhook-jobs` bin (`ringhook jobs` of @ringhook/cli replaces it): one ESM file.
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
  },
])
