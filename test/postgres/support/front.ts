// The one address the service knows, kept while the receiver process behind it is killed and started
// again, as a load balancer or a supervisor holding the socket keeps it across a restart. A
// connection that arrives while no process is up waits for the next one; the connections of a
// process that dies are cut, as its death cuts them.
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'

/** A receiver process the front can send connections to. */
export interface Backend {
  readonly port: number
  /** Resolves when the process has exited. */
  readonly exited: Promise<unknown>
}

/** A TCP front on 127.0.0.1. */
export interface Front {
  /** `http://127.0.0.1:<port>/webhooks`, the app's webhook URL. */
  readonly url: string
  /**
   * Sends new connections to this process until it exits; those that waited go to it at once. The
   * connections kept alive to the one before are cut, as stopping it would: none reaches it any more.
   */
  use(backend: Backend): void
  close(): Promise<void>
}

/** Starts a front on a free port of 127.0.0.1, with no process behind it yet. */
export async function startFront(): Promise<Front> {
  let current: Backend | undefined
  let waiting: Array<(port: number) => void> = []
  /** The clients forwarded to each port, to cut when another process takes over. */
  const forwarded = new Map<number, Set<Socket>>()
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    track(client)
    const forward = (port: number) => {
      const upstream = connect(port, '127.0.0.1')
      track(upstream)
      const clients = forwarded.get(port) ?? new Set()
      forwarded.set(port, clients.add(client))
      client.on('close', () => clients.delete(client))
      client.pipe(upstream).pipe(client)
      // Whichever side goes, the other goes with it: a killed process leaves its clients cut off.
      upstream.on('close', () => client.destroy())
      client.on('close', () => upstream.destroy())
    }
    if (current) forward(current.port)
    else waiting.push(forward)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    use(backend) {
      for (const [port, clients] of forwarded) if (port !== backend.port) for (const client of clients) client.destroy()
      current = backend
      void backend.exited.then(() => {
        if (current === backend) current = undefined
      })
      const ready = waiting
      waiting = []
      for (const forward of ready) forward(backend.port)
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}
