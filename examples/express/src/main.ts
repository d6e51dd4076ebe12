import type { AddressInfo } from 'node:net'
import { createApp } from './app.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start',
  )
  process.exit(1)
}
const port = Number(process.env.PORT ?? 3000)

const server = createApp(secret).listen(port, () => {
  const { port: bound } = server.address() as AddressInfo
  console.log(`ringhook example (Express) listening on http://localhost:${bound}/webhooks`)
})

process.on('SIGTERM', () => server.close(() => process.exit(0)))
