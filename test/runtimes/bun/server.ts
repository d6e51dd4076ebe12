// Serves receiver.fetch, and a Hono app using @ringhook/hono, on Bun.serve. Usage: bun server.ts <secret>
import { smokeFetch, smokeHonoApp } from '../smoke-app.ts'

const secret = Bun.argv[2] ?? ''
const plain = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: smokeFetch(secret, 'bun') })
const hono = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: smokeHonoApp(secret, 'bun').fetch })
console.log(`listening fetch=${plain.port} hono=${hono.port}`)
