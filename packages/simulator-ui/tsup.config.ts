import { defineConfig } from 'tsup'

// The Node entry only (UI_DIR, createUiHandler); the page itself is built by Vite into dist/ui afterwards.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // `import.meta.url` (how UI_DIR is found) in the CommonJS build too.
  shims: true,
  tsconfig: 'tsconfig.node.json',
})
