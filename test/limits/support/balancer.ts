// One URL in front of several instances, as a load balancer: each HTTP request goes to the next
// instance in turn (per request, not per connection, since the simulator keeps connections alive).
import { createServer, request as forward, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Balancer {
  readonly url: string
  /** The instances' ports, from now on. */
  route(ports: readonly number[]): void
  close(): Promise<void>
}

export async function startBalancer(): Promise<Balancer> {
  let ports: readonly number[] = []
  let next = 0
  const server: Server = createServer((incoming, outgoing) => {
    const port = ports[next++ % Math.max(1, ports.length)]
    if (port === undefined) return void outgoing.writeHead(503).end()
    const upstream = forward(
      { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502)
      outgoing.end()
    })
    incoming.pipe(upstream)
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    route(next) {
      ports = next
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
