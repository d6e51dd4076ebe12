// The same Worker with @octokit/webhooks' web middleware (GitHub's scheme; a handler cannot reply).
import { createWebMiddleware, Webhooks } from '@octokit/webhooks'

let middleware: ((request: Request) => Promise<Response>) | undefined

export default {
  fetch(request: Request, env: { GITHUB_WEBHOOK_SECRET: string }): Promise<Response> {
    if (!middleware) {
      const webhooks = new Webhooks({ secret: env.GITHUB_WEBHOOK_SECRET })
      webhooks.on('ping', () => {})
      middleware = createWebMiddleware(webhooks, { path: '/' }) as (request: Request) => Promise<Response>
    }
    return middleware(request)
  },
}
