import { defineConfig } from 'vite'

// The page's source is ui/; the build lands in dist/ui, which the Node entry (src/) serves under /ui/.
export default defineConfig({
  root: 'ui',
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    target: 'es2022',
    // Everything ships inside the package: no CDN, no external fonts, no inline data URLs to allow.
    assetsInlineLimit: 0,
  },
  server: { host: '127.0.0.1' },
})
