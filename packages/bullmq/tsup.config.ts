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
    // The `ringhook-jobs` bin: one ESM file, run by `node dist/bin.js` or through the bin link.
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
  },
])
