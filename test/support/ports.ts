// Ports for servers a test starts late or restarts. A port found free and closed again can be taken
// by anything else before the server binds it (another suite's server, an outgoing connection's
// ephemeral port), so no test picks a port that way. A server that can bind port 0 does, and says
// which port it got; one that must come and go behind a fixed address gets a port this process holds.
import { once } from 'node:events'
import { connect, createServer, type NetConnectOpts, type Socket } from 'node:net'

/** A port held open by this process for as long as the test needs it, in front of a backend that may come and go. */
export interface HeldPort {
  readonly port: number
  /** Where connections go from now on; `undefined` while the backend is down: each connection is closed at once. */
  forwardTo(backend: NetConnectOpts | undefined): void
  /** Releases the port and cuts every connection through it. */
  close(): Promise<void>
}

/**
 * Listens on port 0 of 127.0.0.1 and forwards each connection to the backend of the moment. While
 * there is none, a connection is closed as soon as it is accepted: a client sees a server that is
 * down (a reset rather than a refusal), and the port stays this test's.
 */
export async function holdPort(): Promise<HeldPort> {
  let backend: NetConnectOpts | undefined
  const open = new Set<Socket>()
  const track = (socket: Socket) => {
    open.add(socket)
    socket.once('close', () => open.delete(socket))
    return socket
  }
  const server = createServer((client) => {
    track(client)
    if (!backend) return void client.destroy()
    const upstream = track(connect(backend))
    const cut = () => {
      client.destroy()
      upstream.destroy()
    }
    client.once('error', cut).once('close', cut)
    upstream.once('error', cut).once('close', cut)
    client.pipe(upstream).pipe(client)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return {
    port,
    forwardTo(next) {
      backend = next
      // The old backend's connections end with it; none survive a change of backend.
      for (const socket of open) socket.destroy()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** The port a child process printed once listening, in `http://host:PORT`; for children started with `PORT=0`. */
export function printedPort(output: string): number | undefined {
  const match = /listening on http:\/\/[^:/\s]+:(\d+)/.exec(output)
  return match ? Number(match[1]) : undefined
}
