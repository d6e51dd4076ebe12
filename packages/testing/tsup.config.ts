import { defineConfig } from 'tsup'

export default defineConfig([
  {
    // The library: the root entry (test helpers) and the subpaths of package.json `exports`.
    entry: {
      index: 'src/index.ts',
      simulator: 'src/simulator/index.ts',
      doctor: 'src/doctor/index.ts',
      'control-api': 'src/simulator/control-api.ts',
      vitest: 'src/vitest/index.ts',
    },
    // The vitest entry extends the app's own vitest (an optional peer), never a bundled copy.
    external: ['vitest'],
    format: ['esm', 'cjs'],
    // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
    clean: true,
    sourcemap: true,
    target: 'es2022',
  },
  {
    // The CLI, loaded by the `ringhook` bin (bin/ringhook.mjs): one ESM file, not part of `exports`.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
  },
])
