// Serves receiver.fetch, and a Hono app using @ringhook/hono, on Deno.serve. Usage: deno run server.ts <secret>
import { smokeFetch, smokeHonoApp } from '../smoke-app.ts'

const secret = Deno.args[0] ?? ''
const serve = (handler: (request: Request) => Promise<Response> | Response) =>
  new Promise<number>((resolve) => {
    Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => resolve(port) }, handler)
  })
const [plain, hono] = await Promise.all([serve(smokeFetch(secret, 'deno')), serve(smokeHonoApp(secret, 'deno').fetch)])
console.log(`listening fetch=${plain} hono=${hono}`)
