import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Starts redis-server on a free port, with `extraArgs` last on its command line (they win). Its append-only file is synced on every write, so what
 * Redis acknowledged survives a kill, as on a production Redis with persistence.
 */
export async function startRedisServer(extraArgs: readonly string[] = []): Promise<RedisServer> {
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), 'ringhook-redis-'))
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir]
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
      if (output.includes('Ready to accept connections')) done(resolve)
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
