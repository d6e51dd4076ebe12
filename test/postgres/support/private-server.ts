// A Postgres server of one test's own, for the tests that stop and restart it: the machine's server on
// 5432 is shared by every suite and is never restarted. Its data lives in a temporary directory
// (fsync off: a test's data need not survive the host). It listens on no TCP port of its own: only on a
// Unix socket in that directory, behind a port this process holds (test/support/ports.ts) from start to
// end, so that it keeps its address across a restart, as a database behind one address does, and no
// port is ever closed and then reused.
import { execFile } from 'node:child_process'
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { holdPort } from '../../support/ports.js'

const run = promisify(execFile)
const POSTGRES_LIB = '/usr/lib/postgresql'

/** A private server and what a test does with it. */
export interface PrivatePostgres {
  /** Its `postgres` database, as user `postgres` (trust auth). */
  readonly url: string
  readonly port: number
  /** Stops it: `immediate` is a crash (no shutdown checkpoint, clients cut), `fast` a clean stop. */
  stop(mode: 'fast' | 'immediate'): Promise<void>
  /** Starts it again behind the same port; resolves once it accepts connections. */
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

/** The port in the name of the server's socket file (`.s.PGSQL.5432`); no TCP port is opened. */
const SOCKET_PORT = 5432

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

  // While the server is down, a connection to the held port is cut at once: the socket is not there.
  const front = await holdPort()
  front.forwardTo({ path: join(dir, `.s.PGSQL.${SOCKET_PORT}`) })
  let running = false
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${front.port}/postgres`,
    port: front.port,
    start: async () => {
      const settings = `-p ${SOCKET_PORT} -c listen_addresses='' -c unix_socket_directories=${dir} -c fsync=off`
      await pg('pg_ctl', ['start', '-D', data, '-w', '-t', '30', '-l', join(dir, 'server.log'), '-o', settings])
      running = true
    },
    stop: async (mode) => {
      await pg('pg_ctl', ['stop', '-D', data, '-w', '-m', mode])
      running = false
    },
    destroy: async () => {
      if (running) await server.stop('immediate').catch(() => {})
      await front.close()
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
