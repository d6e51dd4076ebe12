import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gestureBody, githubHeaders, ringHeaders, SECRET } from '../fixtures.js'
import { max, median, min } from '../stats.js'
import { PATH } from './apps.js'

export interface ColdOptions {
  /** Measured runs per contender, after `warmups` unmeasured ones (they fill the OS file cache, Deno's code cache). */
  runs: number
  warmups: number
}

export type Runtime = 'node' | 'bun' | 'deno'

export interface ColdContender {
  runtime: Runtime
  app: string
  /** What the row is compared with: the hand-rolled route on the same runtime and host. */
  baseline: string
  label: string
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const BENCH = fileURLToPath(new URL('../..', import.meta.url))
const pkgDir = (name: string): string => dirname(createRequire(`${BENCH}package.json`).resolve(`${name}/package.json`))

/** The command that runs the child script on each runtime: the native binaries, not the npm shims. */
function command(runtime: Runtime, script: string, app: string): [string, string[]] {
  if (runtime === 'node') return [process.execPath, [script, app, SECRET]]
  if (runtime === 'bun') return [join(pkgDir('bun'), 'bin', 'bun.exe'), [script, app, SECRET]]
  const deno = join(pkgDir('deno'), 'deno')
  return [
    deno,
    ['run', '--no-lock', '--no-prompt', '--allow-net=127.0.0.1', `--allow-read=${ROOT}`, script, app, SECRET],
  ]
}

const host = (runtime: Runtime): string =>
  runtime === 'node' ? '@hono/node-server' : runtime === 'bun' ? 'Bun.serve' : 'Deno.serve'

function fetchContenders(runtime: Runtime): ColdContender[] {
  const on = `${runtime}, ${host(runtime)}`
  return [
    { runtime, app: 'fetch:hand', baseline: 'fetch:hand', label: `${on}: hand-rolled (Web Crypto)` },
    { runtime, app: 'fetch:ringhook', baseline: 'fetch:hand', label: `${on}: ringhook \`receiver.fetch\`` },
    { runtime, app: 'fetch:octokit', baseline: 'fetch:hand', label: `${on}: @octokit/webhooks web middleware` },
  ]
}

export const COLD_CONTENDERS: readonly ColdContender[] = [
  { runtime: 'node', app: 'node:hand', baseline: 'node:hand', label: 'node, node:http: hand-rolled (node:crypto)' },
  { runtime: 'node', app: 'node:ringhook', baseline: 'node:hand', label: 'node, node:http: ringhook `@ringhook/node`' },
  {
    runtime: 'node',
    app: 'node:octokit',
    baseline: 'node:hand',
    label: 'node, node:http: @octokit/webhooks node middleware',
  },
  ...fetchContenders('node'),
  ...fetchContenders('bun'),
  ...fetchContenders('deno'),
]

export interface ColdRun {
  /** Spawn to the first reply received, as the parent sees it. */
  totalMs: number
  /** Child-side: process start to the bench script running (the runtime's own boot). */
  bootMs: number
  /** Child-side: the contender's imports. */
  importMs: number
  /** Child-side: process start to listening. */
  readyMs: number
  /** Parent-side: the first delivery's round trip, from the request sent to the reply read. */
  firstMs: number
  rssMb: number
}

export interface ColdRow extends ColdContender {
  runs: ColdRun[]
  total: { median: number; min: number; max: number }
  importMs: number
  bootMs: number
  firstMs: number
  rssMb: number
}

function post(port: number, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: PATH, method: 'POST', headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A contender that answers a correctly signed delivery with anything but its reply fails the run. */
function check(app: string, reply: { status: number; text: string }): void {
  const expected = app.endsWith(':octokit')
    ? reply.status === 200
    : reply.status === 200 && reply.text.includes('"vibe"')
  if (!expected) throw new Error(`cold start ${app}: answered ${reply.status} ${reply.text.slice(0, 200)}`)
}

/** One whole-process run: spawn, wait for `ready`, post one signed gesture, read the reply and RSS. */
function coldRun(script: string, contender: ColdContender): Promise<ColdRun> {
  const body = gestureBody()
  const { 'content-length': _, ...headers } = contender.app.endsWith(':octokit')
    ? githubHeaders(body)
    : ringHeaders(body)
  const [cmd, args] = command(contender.runtime, script, contender.app)
  const name = `${contender.runtime} ${contender.app}`
  return new Promise((resolve, reject) => {
    const spawned = performance.now()
    const child = spawn(cmd, args, {
      cwd: BENCH,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    })
    let output = ''
    let partial: Omit<ColdRun, 'rssMb'> | undefined
    let replied = false
    let rssMb: number | undefined
    const timer = setTimeout(() => fail(new Error('no reply within 30 s')), 30_000)
    const fail = (error: Error): void => {
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.kill('SIGKILL')
      reject(new Error(`cold start ${name}: ${error.message}\n${output}`))
    }
    // The reply and the child's RSS line arrive in either order.
    const finish = (): void => {
      if (!partial || !replied || rssMb === undefined) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.kill('SIGKILL')
      resolve({ ...partial, rssMb })
    }
    child.on('error', fail)
    child.on('exit', (code) => fail(new Error(`exited with ${code}`)))
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      const ready = /^ready (\d+) ([\d.]+) ([\d.]+) ([\d.]+)$/m.exec(output)
      if (ready && !partial) {
        const [, port, bootMs, importMs, readyMs] = ready.map(Number) as number[]
        const sent = performance.now()
        const run = { totalMs: 0, bootMs: bootMs ?? 0, importMs: importMs ?? 0, readyMs: readyMs ?? 0, firstMs: 0 }
        partial = run
        post(port ?? 0, headers, body).then((reply) => {
          const received = performance.now()
          try {
            check(contender.app, reply)
          } catch (error) {
            return fail(error as Error)
          }
          run.totalMs = received - spawned
          run.firstMs = received - sent
          replied = true
          finish()
        }, fail)
      }
      const rss = /^rss (\d+)$/m.exec(output)
      if (rss && rssMb === undefined) {
        rssMb = Number(rss[1]) / 1024 / 1024
        finish()
      }
    })
  })
}

/** One warm-up round (unmeasured), then interleaved rounds: run k of every contender, then run k+1. */
export async function runColdStart(
  script: string,
  options: ColdOptions,
  log: (line: string) => void,
): Promise<ColdRow[]> {
  const runs = new Map<ColdContender, ColdRun[]>(COLD_CONTENDERS.map((c) => [c, []]))
  for (let round = 0; round < options.warmups + options.runs; round++) {
    const measured = round >= options.warmups
    for (let k = 0; k < COLD_CONTENDERS.length; k++) {
      const contender = COLD_CONTENDERS[(k + round) % COLD_CONTENDERS.length] as ColdContender
      const run = await coldRun(script, contender)
      if (measured) runs.get(contender)?.push(run)
    }
    log(`  cold start round ${round + 1}${measured ? '' : ' (warm-up)'} done`)
  }
  return COLD_CONTENDERS.map((contender) => {
    const list = runs.get(contender) ?? []
    const totals = list.map((r) => r.totalMs)
    return {
      ...contender,
      runs: list,
      total: { median: median(totals), min: min(totals), max: max(totals) },
      importMs: median(list.map((r) => r.importMs)),
      bootMs: median(list.map((r) => r.bootMs)),
      firstMs: median(list.map((r) => r.firstMs)),
      rssMb: median(list.map((r) => r.rssMb)),
    }
  })
}
