/**
 * Instructions per request of HTTP servers, counted by valgrind's callgrind: the one adapter
 * figure that does not move with the machine's load. Each server (an app id of src/http/apps.ts)
 * runs alone under callgrind on `node --single-threaded --predictable` (no background compiler or
 * GC threads); servers counted in one run compare, but one server's count has moved by up to 25%
 * between runs hours apart, so count a change's before and after side by side. It gets `warmup`
 * requests, its counters are zeroed, then `count` more are sent and the counters dumped. Kernel time (the socket writes) and cache
 * misses are not in the count; valgrind must be installed. About a minute per server.
 *
 *   pnpm --dir bench callgrind 3000 node:hand node:ringhook   [--warmup=6000]
 */
import { execFileSync, fork } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { bundleChildren } from './bundle.js'
import { eventBody, ringHeaders } from './fixtures.js'
import type { ServerMessage } from './http/server.js'

const args = process.argv.slice(2).filter((arg) => arg !== '--')
const warmupArg = args.find((arg) => arg.startsWith('--warmup='))
const [countArg, ...apps] = args.filter((arg) => arg !== warmupArg)
const count = Number(countArg)
const warmup = Number(warmupArg?.slice(9) ?? 6000)
if (!Number.isInteger(count) || apps.length === 0) {
  console.error('Usage: pnpm --dir bench callgrind <requests> <app id>... [--warmup=6000]')
  process.exit(2)
}

/** `amount` distinct signed deliveries over 10 connections (slow under valgrind: no timeouts). */
async function send(port: number, amount: number): Promise<void> {
  const pool = Array.from({ length: amount + 100 }, () => {
    const body = eventBody()
    const { 'content-length': _length, ...headers } = ringHeaders(body)
    return { headers, body }
  })
  let next = 0
  await new Promise((resolve, reject) =>
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: 10,
        amount,
        timeout: 120,
        requests: [{ method: 'POST', path: '/webhooks', setupRequest: (request) => ({ ...request, ...pool[next++] }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  )
}

/** The total of the counters dumped after the zeroing (callgrind names that dump `<file>.1`). */
function dumpedInstructions(dir: string): number {
  const dump = readdirSync(dir).find((file) => file.endsWith('.1'))
  const total = dump && /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, dump), 'utf8'))
  if (!total) throw new Error(`no callgrind dump in ${dir}`)
  return Number(total[1])
}

const { server } = await bundleChildren()
for (const app of apps) {
  const dir = mkdtempSync(join(tmpdir(), 'ringhook-callgrind-'))
  const child = fork(server, [app], {
    stdio: 'inherit',
    execPath: 'valgrind',
    execArgv: [
      '--tool=callgrind',
      '--quiet',
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
      process.execPath,
      '--single-threaded',
      '--predictable',
    ],
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'ready') resolve(message.port)
      else if (message.type === 'error') reject(new Error(message.message))
    })
  })
  await send(port, warmup)
  execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' })
  await send(port, count)
  execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' })
  console.log(`${app.padEnd(20)} ${Math.round(dumpedInstructions(dir) / count / 1000)}k instructions a request`)
  // Disconnecting stops the server the way the bench does, after its own cleanup.
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.disconnect()
  })
  rmSync(dir, { recursive: true, force: true })
}
