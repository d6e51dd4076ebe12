// A Cloudflare Worker that is a Hono app using @ringhook/hono; Hono hands the adapter executionCtx.
import type { Hono } from 'hono'
import { smokeHonoApp } from '../smoke-app.js'

let app: Hono | undefined

export default {
  fetch(
    request: Request,
    env: { RING_WEBHOOK_SECRET: string },
    ctx: ExecutionContextLike,
  ): Response | Promise<Response> {
    app ??= smokeHonoApp(env.RING_WEBHOOK_SECRET, 'workerd')
    return app.fetch(request, env, ctx)
  },
}

type ExecutionContextLike = Parameters<Hono['fetch']>[2]
