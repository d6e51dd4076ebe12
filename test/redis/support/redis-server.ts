import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { holdPort } from '../../support/ports.js'

/** A redis-server of a test's own, which the test may stop and start again. */
export interface RedisServer {
  readonly port: number
  /** Starts it (again) on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>
  /** Kills it outright, the way a crash or a lost host would. */
  stop(): Promise<void>
  /** Stops it and deletes its data. */
  close(): Promise<void>
}

/**
 * Starts redis-server, with `extraArgs` last on its command line (they win). Its append-only file is synced on every write, so what
 * Redis acknowledged survives a kill, as on a production Redis with persistence.
 *
 * Redis listens on a Unix socket of its own; clients reach it through a TCP port this process holds
 * for the server's whole life, so a restart finds its port as it left it (nothing else can take it).
 */
export async function startRedisServer(extraArgs: readonly string[] = []): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ringhook-redis-'))
  const socket = join(dir, 'redis.sock')
  const held = await holdPort()
  held.forwardTo({ path: socket })
  const { port } = held
  const args = ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--dir', dir]
  const persistence = ['--appendonly', 'yes', '--appendfsync', 'always']
  let child: ChildProcess | undefined

  const start = async () => {
    const server = spawn('redis-server', [...args, ...persistence, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] })
    child = server
    await ready(server, port)
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = once(running, 'exit')
    running.kill('SIGKILL')
    await exited
  }
  await start()
  return {
    port,
    start,
    stop,
    close: async () => {
      await stop()
      await held.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Resolves when the server logs that it accepts connections; rejects, loudly, if it cannot start. */
function ready(server: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk
      if (/ready to accept connections/i.test(output)) done(resolve)
    }
    const fail = (why: string) => done(() => reject(new Error(`redis-server on port ${port} ${why}\n${output}`)))
    const onError = (error: Error) =>
      fail(`could not start (${error.message}); the Redis suites need the redis-server binary on PATH`)
    const onExit = (code: number | null) => fail(`exited (${code}) before accepting connections`)
    const timer = setTimeout(() => fail('was not ready within 10 s'), 10_000)
    const done = (then: () => void) => {
      clearTimeout(timer)
      server.stdout?.off('data', onData)
      server.stderr?.off('data', onData)
      server.off('error', onError)
      server.off('exit', onExit)
      // Keep draining its log, or a full pipe would stall the server.
      server.stdout?.resume()
      server.stderr?.resume()
      then()
    }
    server.stdout?.on('data', onData)
    server.stderr?.on('data', onData)
    server.once('error', onError)
    server.once('exit', onExit)
  })
}
