// One webhook URL in front of several receiver processes, as a load balancer: each new connection
// goes to the next live process in turn; a process that exits is dropped, its connections cut.
import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { InstanceEnv } from './instance.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export interface Front {
  /** `http://127.0.0.1:<port>/webhooks`. */
  readonly url: string
  /** Starts an instance process and sends connections to it from now on. */
  start(env: InstanceEnv): Promise<ChildProcess>
  /** Kills an instance with SIGKILL, as a host dies, and waits for it to be gone. */
  kill(child: ChildProcess): Promise<void>
  close(): Promise<void>
}

export async function startFront(): Promise<Front> {
  const live: Array<{ child: ChildProcess; port: number }> = []
  const sockets = new Set<Socket>()
  let turn = 0
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    track(client)
    const target = live[turn++ % Math.max(1, live.length)]
    if (!target) return client.destroy()
    const upstream = connect(target.port, '127.0.0.1')
    track(upstream)
    client.pipe(upstream).pipe(client)
    upstream.on('close', () => client.destroy())
    client.on('close', () => upstream.destroy())
  })
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 })
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    async start(env) {
      const child = fork(fileURLToPath(new URL('./instance.ts', import.meta.url)), [], {
        cwd: ROOT,
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, ...env },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      const [message] = (await once(child, 'message')) as [{ port: number }]
      const entry = { child, port: message.port }
      live.push(entry)
      child.once('exit', () => live.splice(live.indexOf(entry), 1))
      return child
    },
    async kill(child) {
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
    },
    async close() {
      for (const { child } of live.splice(0)) child.kill('SIGKILL')
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}
