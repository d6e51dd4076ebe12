import { defineConfig } from 'tsup'

export default defineConfig([
  {
    // The library: `@ringhook/cli/doctor`, the probes of `ringhook doctor` for code.
    entry: { doctor: 'src/doctor/index.ts' },
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
