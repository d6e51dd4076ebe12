// Runs the Lambda handler locally: each HTTP request becomes the event an API Gateway HTTP API
// (payload 2.0) would send, body base64-encoded as a gateway does for binary media, and the
// handler's result is written back. For trying the example and for tests; AWS runs handler.ts itself.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { closeGracefully } from '@ringhook/node'
import type { APIGatewayProxyEventV2 } from 'aws-lambda'

if (!process.env.RING_WEBHOOK_SECRET) {
  console.error(
    'RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page, e.g.\n  RING_WEBHOOK_SECRET=whsec_... pnpm start',
  )
  process.exit(1)
}
const { handler, receiver } = await import('./handler.js')
const port = Number(process.env.PORT ?? 3000)

async function toEvent(request: IncomingMessage): Promise<APIGatewayProxyEventV2> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headersDistinct)) headers[name] = value?.join(',') ?? ''
  const method = request.method ?? 'GET'
  const path = new URL(request.url ?? '/', 'http://localhost').pathname
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: request.socket.remoteAddress ?? '', userAgent: '' },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: body.toString('base64'),
    isBase64Encoded: true,
  }
}

const server = createServer(async (request, response) => {
  if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/webhooks') {
    response.writeHead(404).end()
    return
  }
  try {
    const result = await handler(await toEvent(request))
    response.writeHead(result.statusCode, result.headers).end(result.body)
  } catch (error) {
    // What API Gateway answers when the function fails; the client may also have gone away mid-body.
    console.error('[runner] invocation failed:', error)
    if (!response.headersSent) response.writeHead(502).end('{"message":"Internal Server Error"}')
  }
})
server.listen(port, () => {
  // The port bound, which PORT=0 leaves to the system.
  const bound = (server.address() as AddressInfo).port
  console.log(`ringhook example (AWS Lambda, local runner) listening on http://localhost:${bound}/webhooks`)
})

// Lambda itself never sends this; the local runner stops like the other examples (`pnpm start`
// runs node itself, so the signal reaches this process). The port closes; deliveries that still
// arrive on open connections are answered 503 with Connection: close, so the sender retries them;
// handlers already running get 10 s to finish. Idle connections end on their keep-alive timeout
// (5 s), so no request is cut off mid-way.
let stopping = false
process.on('SIGTERM', async () => {
  // Process managers may send the signal more than once: shut down once.
  if (stopping) return
  stopping = true
  console.log('SIGTERM: finishing deliveries in progress')
  const { drained, pending } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
  console.log(drained ? 'Stopped cleanly' : `Stopped with ${pending} handler(s) still running`)
  process.exit(drained ? 0 : 1)
})
