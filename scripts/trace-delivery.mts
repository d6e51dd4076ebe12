// Lists the files and named functions of ringhook's sources that run for one gesture through
// node:http (@ringhook/node, the memory store, a handler answering with a vibe), by V8's precise
// coverage: the hand trace of docs/architecture.md, counted. From a checkout's root, where
// tsconfig.json maps @ringhook/* to the sources:
//   node --import tsx scripts/trace-delivery.mts
import { createServer, request as httpRequest } from 'node:http'
import { Session } from 'node:inspector/promises'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'

const root = `file://${process.cwd()}/packages/`
const secret = 'whsec_trace'
const receiver = createReceiver({ secret, logger: silentLogger })
receiver.on('gesture', () => vibe('tap', 'pulse').message('Got it'))
const server = createServer(ringhook(receiver)).listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const { port } = server.address() as { port: number }

async function signed(user: number): Promise<{ body: string; headers: Record<string, string> }> {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: `3f1c2a9e-0000-4000-8000-${String(user).padStart(12, '0')}`,
    app_id: 'app_trace',
    timestamp: new Date().toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret, body })
  return { body, headers: { ...headers, 'content-type': 'application/json' } }
}

function send({ body, headers }: { body: string; headers: Record<string, string> }): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/webhooks', headers }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
// Warmed up first, so that what runs once per process (schemas built, modules' first calls) is not counted.
for (let user = 1; user <= 3; user++) await send(await signed(user))
const traced = await signed(100)
await session.post('Profiler.takePreciseCoverage') // zeroes the counts
const status = await send(traced)
const { result } = await session.post('Profiler.takePreciseCoverage')
const lines: string[] = []
let functions = 0
let anonymous = 0
for (const script of result) {
  if (!script.url.startsWith(root) || script.url.includes('/node_modules/')) continue
  // Every function that ran, anonymous ones (callbacks handed to `then`, arrows) included, listed as `(anonymous)`.
  const ran = script.functions.filter(
    (fn) => fn.ranges[0] !== undefined && fn.ranges[0].count > 0 && fn.ranges[0].startOffset > 0,
  )
  if (ran.length === 0) continue
  lines.push(`${script.url.slice(root.length)}: ${ran.map((fn) => fn.functionName || '(anonymous)').join(', ')}`)
  functions += ran.length
  anonymous += ran.filter((fn) => fn.functionName === '').length
}
console.log(`answered ${status}: ${lines.length} files, ${functions} functions (${anonymous} of them anonymous)`)
for (const line of lines.sort()) console.log(`  ${line}`)
server.close()
