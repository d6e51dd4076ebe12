// The Worker: the Hono app, built once per isolate from its bindings, and the Durable Object class
// the wrangler config binds as RINGHOOK.
import type { Hono } from 'hono'
import { createApp, type Env } from './app.js'

export { RinghookObject } from '@ringhook/cloudflare'

let app: Hono | undefined

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContextLike): Response | Promise<Response> {
    app ??= createApp(env)
    return app.fetch(request, env, ctx)
  },
}

/** Workers' `ExecutionContext`, as Hono takes it (it holds `waitUntil`, for handlers past the deadline). */
type ExecutionContextLike = Parameters<Hono['fetch']>[2]
