// The same Worker with a hand-rolled Web Crypto verifier (see ../../hand/web-route.ts).
import { handRolledWebRoute } from '../../hand/web-route.js'

let route: ((request: Request) => Promise<Response>) | undefined

export default {
  fetch(request: Request, env: { RING_WEBHOOK_SECRET: string }): Promise<Response> {
    route ??= handRolledWebRoute(env.RING_WEBHOOK_SECRET)
    return route(request)
  },
}
