// A Cloudflare Worker receiving the service's webhooks with ringhook: one gesture handler.
import { createReceiver, type Receiver, vibe } from '@ringhook/core'

let receiver: Receiver | undefined

export default {
  fetch(request: Request, env: { RING_WEBHOOK_SECRET: string }, ctx: unknown): Promise<Response> {
    receiver ??= createReceiver({ secret: env.RING_WEBHOOK_SECRET }).on('gesture', (event) =>
      vibe('tap', 'pulse').message(`Got ${event.gesture_type}`),
    )
    return receiver.fetch(request, env, ctx)
  },
}
