import { defineConfig } from 'tsup'

export default defineConfig({
  // The simulator (the root) and the control API's types (`/control-api`, types only).
  entry: { index: 'src/index.ts', 'control-api': 'src/control-api.ts' },
  format: ['esm', 'cjs'],
  // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
  clean: true,
  sourcemap: true,
  target: 'es2022',
})
