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
  // `pnpm dev` serves the page itself, so the simulator cannot hand it its token: the proxy adds
  // the one the simulator was started with (RINGHOOK_SIM_TOKEN) to the page's control calls, which
  // it forwards with their Host and Origin, so the simulator sees a page of its own origin.
  server: {
    host: '127.0.0.1',
    proxy: {
      '/_sim': {
        target: process.env.RINGHOOK_SIM_URL ?? 'http://127.0.0.1:4010',
        headers: { 'x-ringhook-sim-token': process.env.RINGHOOK_SIM_TOKEN ?? '' },
      },
    },
  },
})
