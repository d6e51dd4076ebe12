import { defineConfig } from 'tsup'

export default defineConfig({
  // The root entry (for apps) and the subpaths of package.json `exports`: adapters, the API's schemas,
  // dedup stores, signatures and capture; and `internal`, for ringhook's own packages (src/internal.ts).
  entry: {
    index: 'src/index.ts',
    adapter: 'src/adapter.ts',
    api: 'src/api.ts',
    store: 'src/store.ts',
    signature: 'src/signature.ts',
    capture: 'src/capture.ts',
    internal: 'src/internal.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations: scripts/declarations.mjs, which the build script runs after tsup.
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // zod is bundled into dist: only the parts of `zod/mini` the schemas use (~29 KB minified)
  // instead of zod's ~95 module files (64 of them locales, which `zod/mini` loads too), since
  // importing those was most of a cold start. Measured in bench/RESULTS.md ("Deployment"):
  // `import('@ringhook/core')` + create + first delivery went from ~87 ms (zod classic as a
  // dependency) and ~78 ms (zod/mini as a dependency) to ~19 ms on node. The declarations still
  // import zod's types, so zod stays a dependency. The copy is private: core's exported schemas
  // are not `instanceof` the app's `z.ZodType`; their `.parse`/`.safeParse` and composing them into
  // the app's own zod schemas work (test/packaging/zod-bundled.test.ts).
  noExternal: ['zod'],
})
