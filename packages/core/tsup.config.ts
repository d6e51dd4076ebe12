import { defineConfig } from 'tsup'

export default defineConfig({
  // The root entry (for apps) and the subpaths of package.json `exports`: adapters and the API.
  entry: { index: 'src/index.ts', adapter: 'src/adapter.ts', api: 'src/api.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
})
