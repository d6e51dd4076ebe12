// A Postgres server of one test's own, for the tests that stop and restart it: the machine's server on
// 5432 is shared by every suite and is never restarted. Its data lives in a temporary directory
// (fsync off: a test's data need not survive the host), it listens on 127.0.0.1 only, and it keeps its
// port across a restart, as a database behind one address does.
import { execFile } from 'node:child_process'
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const POSTGRES_LIB = '/usr/lib/postgresql'

/** A private server and what a test does with it. */
export interface PrivatePostgres {
  /** Its `postgres` database, as user `postgres` (trust auth). */
  readonly url: string
  readonly port: number
  /** Stops it: `immediate` is a crash (no shutdown checkpoint, clients cut), `fast` a clean stop. */
  stop(mode: 'fast' | 'immediate'): Promise<void>
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>
  /** Stops it if it runs and deletes its data. Safe to call more than once. */
  destroy(): Promise<void>
}

/** The newest installed server's binaries, or a clear error naming what is missing. */
function binaries(): string {
  let versions: string[] = []
  try {
    versions = readdirSync(POSTGRES_LIB).filter((name) => /^\d+$/.test(name))
  } catch {}
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (!newest)
    throw new Error(`No Postgres server binaries under ${POSTGRES_LIB}: install postgresql to run this test.`)
  return join(POSTGRES_LIB, newest, 'bin')
}

/** A port nothing listens on now; the server then keeps it for the test's whole life. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => probe.once('listening', resolve))
  const address = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no TCP port was assigned')
  return address.port
}

/** Creates, and starts, a server in a temporary directory. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries()
  const dir = mkdtempSync(join(tmpdir(), 'ringhook-pg-'))
  const data = join(dir, 'data')
  // Postgres refuses to run as root: as root, its binaries run as the `postgres` user, who owns the directory.
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: group } = await run('id', ['-g', 'postgres'])
    chownSync(dir, Number(stdout), Number(group))
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args)

  const port = await freePort()
  let running = false
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: async () => {
      const settings = `-p ${server.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`
      await pg('pg_ctl', ['start', '-D', data, '-w', '-t', '30', '-l', join(dir, 'server.log'), '-o', settings])
      running = true
    },
    stop: async (mode) => {
      await pg('pg_ctl', ['stop', '-D', data, '-w', '-m', mode])
      running = false
    },
    destroy: async () => {
      if (running) await server.stop('immediate').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
  try {
    await pg('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync'])
    await server.start()
  } catch (error) {
    await server.destroy()
    throw error
  }
  return server
}
