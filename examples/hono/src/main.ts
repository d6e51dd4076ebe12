import { serve } from '@hono/node-server'
import { createApp } from './app.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start',
  )
  process.exit(1)
}
const port = Number(process.env.PORT ?? 3000)

// On Bun, Deno or Workers, export `createApp(secret)` (its `fetch`) instead of calling serve().
const server = serve({ fetch: createApp(secret).fetch, port }, (info) => {
  console.log(`ringhook example (Hono) listening on http://localhost:${info.port}/webhooks`)
})

process.on('SIGTERM', () => server.close(() => process.exit(0)))
