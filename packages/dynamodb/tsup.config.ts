import { defineConfig } from 'tsup'

const common = { clean: false, sourcemap: true, target: 'es2022' } as const

// Declarations: scripts/declarations.mjs, which the build script runs after tsup.
export default defineConfig([
  // The stores and the table.
  { ...common, entry: { index: 'src/index.ts' }, format: ['esm', 'cjs'], clean: true },
  // The command that creates the table: run by node, ESM only (it awaits at its top level).
  { ...common, entry: { 'create-table-cli': 'src/create-table-cli.ts' }, format: ['esm'] },
])
