// Serves the Worker locally on workerd (Miniflare), with no network and no login: the same code
// `wrangler deploy` ships, bundled by esbuild, its Durable Objects' storage kept in ./.storage so
// that a delivery answered before a restart is still a duplicate after it. A Node server on PORT
// passes each request to the Worker, and on SIGTERM stops the way the other examples do.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { closeGracefully } from '@ringhook/node'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'

const HERE = fileURLToPath(new URL('..', import.meta.url)) // the example's folder

const secret = process.env.RING_WEBHOOK_SECRET
if (!secret) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start',
  )
  process.exit(1)
}
const adminToken = process.env.ADMIN_TOKEN
if (adminToken !== undefined && adminToken.length < 32) {
  console.error('ADMIN_TOKEN must be at least 32 characters, e.g.\n  ADMIN_TOKEN=$(openssl rand -hex 32) pnpm start')
  process.exit(1)
}
if (!adminToken) console.log('ADMIN_TOKEN is not set: GET /users is off')
const port = Number(process.env.PORT ?? 8787)
const storage = process.env.STORAGE_DIR ?? join(HERE, '.storage')

// The Worker as wrangler bundles it: ESM, for workerd, no Node built-ins.
const bundle = await build({
  entryPoints: [join(HERE, 'src/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  conditions: ['workerd', 'worker', 'import'],
  write: false,
  logLevel: 'warning',
})
const mf = new Miniflare({
  modules: true,
  script: bundle.outputFiles[0]?.text ?? '',
  compatibilityDate: '2025-07-01',
  bindings: {
    RING_WEBHOOK_SECRET: secret,
    ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}),
    ...(process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {}),
  },
  durableObjects: { RINGHOOK: { className: 'RinghookObject', useSQLite: true } },
  durableObjectsPersist: storage,
})
await mf.ready
// Miniflare stops workerd and exits at once on SIGTERM (its exit hook); the shutdown below stops
// workerd itself, once the deliveries in progress have their answers.
process.removeAllListeners('SIGTERM')

/** Requests passed to the Worker and not answered yet. */
let inFlight = 0
let stopping = false
let drained: () => void = () => {}

async function pass(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (stopping) {
    // As @ringhook/node answers during a shutdown: the service retries it, elsewhere or here restarted.
    response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' })
    return void response.end('{"error":{"code":"shutting_down","message":"The server is shutting down; retry."}}')
  }
  inFlight++
  try {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
    )
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
    const answer = await mf.dispatchFetch(`http://localhost${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers,
      ...(body && request.method !== 'GET' && request.method !== 'HEAD' ? { body } : {}),
    })
    const out = Buffer.from(await answer.arrayBuffer())
    response.writeHead(answer.status, Object.fromEntries(answer.headers))
    response.end(out)
  } catch (error) {
    console.error('workerd did not answer:', error instanceof Error ? error.message : error)
    if (!response.headersSent) response.writeHead(503, { 'retry-after': '1', connection: 'close' })
    response.end()
  } finally {
    if (--inFlight === 0 && stopping) drained()
  }
}

const server = createServer((request, response) => void pass(request, response))
server.listen(port, '127.0.0.1', () => {
  const bound = (server.address() as AddressInfo).port
  console.log(`ringhook example (Workers, on workerd) listening on http://127.0.0.1:${bound}/webhooks`)
})

// SIGTERM: the port closes, deliveries still arriving on open connections get 503 with
// Connection: close (the service retries them), and those inside the Worker finish first (10 s at
// most); then workerd stops. Its objects' storage is on disk: nothing stored is lost.
process.on('SIGTERM', async () => {
  if (stopping) return
  stopping = true
  console.log('SIGTERM: finishing deliveries in progress')
  const settled = new Promise<void>((resolve) => {
    drained = resolve
    if (inFlight === 0) resolve()
  })
  const worker = {
    close: async ({ timeoutMs = 10_000 } = {}) => {
      const done = await Promise.race([
        settled.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false)),
      ])
      return { drained: done, pending: done ? 0 : inFlight }
    },
  }
  const result = await closeGracefully(server, worker, { timeoutMs: 10_000 })
  await mf.dispose()
  console.log(result.drained ? 'Stopped cleanly' : `Stopped with ${result.pending} request(s) still running`)
  process.exit(result.drained ? 0 : 1)
})
