// A Cloudflare Worker serving receiver.fetch; bundled by the test as a user's bundler would.
import type { Receiver } from '@ringhook/core'
import { smokeReceiver } from '../smoke-app.js'

let receiver: Receiver | undefined

export default {
  fetch(request: Request, env: { RING_WEBHOOK_SECRET: string }, ctx: unknown): Promise<Response> {
    receiver ??= smokeReceiver(env.RING_WEBHOOK_SECRET, 'workerd')
    // A control for the test: the same receiver, not given the context that holds waitUntil.
    if (new URL(request.url).pathname === '/without-wait-until') return receiver.fetch(request)
    return receiver.fetch(request, env, ctx)
  },
}
