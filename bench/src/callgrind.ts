/**
 * Instructions per request of HTTP servers, or per delivery of `receiver.handle()` in one process,
 * counted by valgrind's callgrind: the figures that do not move with the machine's load. Each
 * subject runs alone under callgrind on `node --single-threaded --predictable` (no background
 * compiler or GC threads); subjects counted in one run compare, but one subject's count has moved by
 * up to 25% between runs hours apart, so count a change's before and after side by side. It gets
 * `warmup` requests, its counters are zeroed, then `count` more are made and the counters dumped.
 * Kernel time (the socket writes) and cache misses are not in the count; valgrind must be installed.
 * About a minute per server.
 *
 * A subject is an HTTP server (an app id of src/http/apps.ts), or `handle` (the micro bench's
 * acknowledged delivery through `receiver.handle()`, src/micro/handle-child.ts), or `handle@DIR`
 * (the same on another built checkout's core, as `--against` reads it), or `micro:NAME` (a micro
 * contender by its name, e.g. `micro:baseline: hand-rolled verify + JSON.parse`).
 *
 *   pnpm --dir bench callgrind 3000 node:hand node:ringhook   [--warmup=6000]
 *   pnpm --dir bench callgrind 20000 handle handle@../../old --warmup=20000
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve as resolvePath } from 'node:path'
import autocannon from 'autocannon'
import { bundleChildren } from './bundle.js'
import { eventBody, ringHeaders } from './fixtures.js'
import type { ServerMessage } from './http/server.js'

const args = process.argv.slice(2).filter((arg) => arg !== '--')
const warmupArg = args.find((arg) => arg.startsWith('--warmup='))
const [countArg, ...subjects] = args.filter((arg) => arg !== warmupArg)
const count = Number(countArg)
const warmup = Number(warmupArg?.slice(9) ?? 6000)
if (!Number.isInteger(count) || subjects.length === 0) {
  console.error('Usage: pnpm --dir bench callgrind <count> <app id | handle | handle@DIR>... [--warmup=6000]')
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

/** Runs `subject` under callgrind; `measure` warms it up, zeroes the counters, makes `count` calls. */
async function counted(
  script: string,
  args: string[],
  measure: (child: ChildProcess, zero: () => void) => Promise<void>,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ringhook-callgrind-'))
  const child = fork(script, args, {
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
  const control = (flag: string) => execFileSync('callgrind_control', [flag, String(child.pid)], { stdio: 'ignore' })
  await measure(child, () => control('-z'))
  control('-d')
  const instructions = dumpedInstructions(dir)
  // Disconnecting stops the child the way the bench does, after its own cleanup.
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.disconnect()
  })
  rmSync(dir, { recursive: true, force: true })
  return instructions
}

/** The next message from `child` of type `type`; an `error` message rejects. */
function next(child: ChildProcess, type: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const listen = (message: { type: string; port?: number; message?: string }) => {
      if (message.type !== type && message.type !== 'error') return
      child.off('message', listen)
      if (message.type === 'error') reject(new Error(message.message))
      else resolve(message)
    }
    child.on('message', listen)
  })
}

const children = await bundleChildren()
for (const subject of subjects) {
  const handle = /^handle(?:@(.+))?$/.exec(subject) ?? /^(micro:.+)$/.exec(subject)
  const childArgs = (found: string | undefined) =>
    found === undefined ? [] : found.startsWith('micro:') ? [found] : [resolvePath(found)]
  const instructions = handle
    ? await counted(children.handle, childArgs(handle[1]), async (child, zero) => {
        await next(child, 'ready')
        const run = async (amount: number) => {
          const done = next(child, 'done')
          child.send({ count: amount })
          await done
        }
        await run(warmup)
        zero()
        await run(count)
      })
    : await counted(children.server, [subject], async (child, zero) => {
        const { port } = (await next(child, 'ready')) as ServerMessage & { type: 'ready' }
        await send(port, warmup)
        zero()
        await send(port, count)
      })
  const unit = handle ? 'a delivery' : 'a request'
  console.log(`${subject.padEnd(20)} ${(instructions / count / 1000).toFixed(1)}k instructions ${unit}`)
}
