import { closeGracefully } from '@ringhook/node'
import { createApp } from './app.js'

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start',
  )
  process.exit(1)
}
const port = Number(process.env.PORT ?? 3000)

const { app, receiver } = createApp(secret)
await app.listen({ port, host: '0.0.0.0' })
const address = app.server.address()
const bound = typeof address === 'object' && address ? address.port : port
console.log(`ringhook example (Fastify) listening on http://localhost:${bound}/webhooks`)

// A deploy or scale-down sends SIGTERM. Stop accepting connections; deliveries that still arrive
// on open connections are answered 503 so the service retries them (on another instance, or on
// this one restarted); handlers already running, even past the deadline, get 10 s to finish.
let stopping = false
process.on('SIGTERM', async () => {
  // tsx and process managers may forward the signal more than once: shut down once.
  if (stopping) return
  stopping = true
  console.log('SIGTERM: finishing deliveries in progress')
  const { drained, pending } = await closeGracefully(app.server, receiver, { timeoutMs: 10_000 })
  console.log(drained ? 'Stopped cleanly' : `Stopped with ${pending} handler(s) still running`)
  process.exit(drained ? 0 : 1)
})
