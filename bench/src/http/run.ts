import { type ChildProcess, fork } from 'node:child_process'
import { AGAINST_SUFFIX } from '../against.js'
import { githubHeaders, ringHeaders } from '../fixtures.js'
import { max, median, min } from '../stats.js'
import { type CorePlan, pinProcess, planCores } from './cores.js'
import { type Launch, serverLaunch, setarchWorks } from './launch.js'
import { type LoadResult, runLoad, type Signer } from './load.js'
import type { HttpRow } from './row.js'
import type { ServerMessage } from './server.js'
import { betterQuartile } from './steady.js'

export type { HttpRow } from './row.js'

export interface HttpOptions {
  /** Timed slices of load per server, interleaved with the other servers of its group. */
  slices: number
  /** Each slice's length. */
  durationS: number
  warmupS: number
  connections: number
  /** Only the groups whose framework name starts with one of these (case-insensitive); all when absent. */
  frameworks?: readonly string[] | undefined
  /** Another checkout's compiled server script: its plain ringhook app of each group runs too (src/against.ts). */
  against?: string | undefined
}

/** One framework: its hand-rolled route is the baseline every other server in the group is compared with. */
export interface HttpGroup {
  framework: string
  baseline: string
  contenders: readonly string[]
}

export const HTTP_GROUPS: readonly HttpGroup[] = [
  {
    framework: 'node:http',
    baseline: 'node:hand',
    contenders: [
      'node:ringhook',
      'node:octokit',
      'node:ringhook-redis',
      'node:ringhook-queue',
      'node:ringhook-otel',
      'node:hand-otel',
      'node:ringhook-capture',
    ],
  },
  { framework: 'Express 5', baseline: 'express:hand', contenders: ['express:ringhook'] },
  { framework: 'Fastify 5', baseline: 'fastify:hand', contenders: ['fastify:ringhook'] },
  { framework: 'Koa 3', baseline: 'koa:hand', contenders: ['koa:ringhook'] },
  { framework: 'Hono (@hono/node-server)', baseline: 'hono:hand', contenders: ['hono:ringhook'] },
  { framework: 'Fetch handler (@hono/node-server)', baseline: 'fetch:hand', contenders: ['fetch:ringhook'] },
]

/** The node example's receiver against the hand-rolled route: the memory target's pair. */
export const NODE_MEMORY_GROUP: HttpGroup = {
  framework: 'node:http',
  baseline: 'node:hand',
  contenders: ['node:ringhook'],
}

export interface SkippedApp {
  app: string
  reason: string
}

const signerFor = (app: string): Signer => (app === 'node:octokit' ? githubHeaders : ringHeaders)

interface Started {
  app: string
  child: ChildProcess
  port: number
}

function start(entry: string, app: string, launch: Launch): Promise<Started> {
  const id = app.endsWith(AGAINST_SUFFIX) ? app.slice(0, -AGAINST_SUFFIX.length) : app
  const child = fork(entry, [id], { stdio: 'inherit', ...launch })
  return new Promise((resolve, reject) => {
    child.once('message', (message: ServerMessage) => {
      if (message.type === 'ready') resolve({ app, child, port: message.port })
      else reject(new Error(message.type === 'error' ? message.message : `unexpected ${message.type}`))
    })
    child.once('exit', (code) => reject(new Error(`server ${app} exited with code ${code}`)))
  })
}

type Stats = Extract<ServerMessage, { type: 'stats' }>

/** A server's counts; with `flush`, once its capture (if any) has written what it queued. */
function serverStats(server: Started, flush = false): Promise<Stats> {
  return new Promise((resolve) => {
    server.child.once('message', (message: ServerMessage) => {
      if (message.type === 'stats') resolve(message)
    })
    server.child.send({ type: 'stats', flush })
  })
}

function stop(server: Started): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve()
    server.child.once('exit', () => resolve())
    server.child.disconnect()
  })
}

/**
 * Starts a group's servers side by side, warms each up, then gives them their timed slices in turns
 * (slice 1 of each, slice 2 of each...), so that every server's slices come from the same minutes.
 */
async function runGroup(
  entry: string,
  group: HttpGroup,
  options: HttpOptions,
  log: (line: string) => void,
  launch: Launch,
): Promise<{ rows: HttpRow[]; skipped: SkippedApp[] }> {
  const apps = [group.baseline, ...group.contenders]
  const against = options.against
  if (against)
    apps.push(...group.contenders.filter((app) => app.endsWith(':ringhook')).map((app) => app + AGAINST_SUFFIX))
  const outcomes = await Promise.allSettled(
    apps.map((app) => start(app.endsWith(AGAINST_SUFFIX) ? (against as string) : entry, app, launch)),
  )
  const servers: Started[] = []
  const skipped: SkippedApp[] = []
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') servers.push(outcome.value)
    else skipped.push({ app: apps[i] as string, reason: (outcome.reason as Error).message })
  })
  const load = (server: Started, durationS: number) =>
    runLoad({
      port: server.port,
      sign: signerFor(server.app),
      connections: options.connections,
      durationS,
      presign: Math.ceil(durationS * PRESIGN_RATE),
    })
  try {
    for (const server of servers) await load(server, options.warmupS)
    const runs = new Map<string, LoadResult[]>(servers.map((s) => [s.app, []]))
    // Server CPU per delivery handled: what the adapter costs, whatever share of the cores the
    // load generator takes in that run.
    const cpu = new Map<string, number[]>(servers.map((s) => [s.app, []]))
    for (let round = 0; round < options.slices; round++) {
      for (let k = 0; k < servers.length; k++) {
        const server = servers[(k + round) % servers.length] as Started
        const before = await serverStats(server)
        const result = await load(server, options.durationS)
        const after = await serverStats(server)
        runs.get(server.app)?.push(result)
        cpu.get(server.app)?.push((after.cpuUs - before.cpuUs) / Math.max(1, after.handled - before.handled))
        log(
          `  ${server.app.padEnd(20)} slice ${round + 1}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms, load generator CPU ${Math.round(result.loadCpuShare * 100)}%`,
        )
      }
    }
    const rows: HttpRow[] = []
    for (const server of servers) {
      const results = runs.get(server.app) as LoadResult[]
      const stats = await serverStats(server, true)
      const rps = results.map((r) => r.rps)
      rows.push({
        framework: group.framework,
        app: server.app,
        baseline: group.baseline,
        runs: results,
        cpuUs: cpu.get(server.app) ?? [],
        rps: { steady: betterQuartile(rps, 'higher'), min: min(rps), max: max(rps) },
        p50Ms: median(results.map((r) => r.p50Ms)),
        p99Ms: median(results.map((r) => r.p99Ms)),
        errors: results.reduce((sum, r) => sum + r.errors, 0),
        peakRssMb: stats.maxRssKb / 1024,
        cpuUsPerRequest: betterQuartile(cpu.get(server.app) ?? [], 'lower'),
        handled: stats.handled,
        ...(stats.capture ? { capture: stats.capture } : {}),
      })
    }
    return { rows, skipped }
  } finally {
    await Promise.all(servers.map(stop))
  }
}

/**
 * Deliveries signed ahead per second of load; above what a server on its own core serves here
 * (up to ~26,000 a second), so the load generator does not sign during the timed run.
 */
const PRESIGN_RATE = 40_000

export interface HttpResults {
  rows: HttpRow[]
  skipped: SkippedApp[]
  /** Where the load generator and the servers ran; undefined when they shared every core. */
  cores: CorePlan | undefined
  /** Whether the servers ran with their address space not randomised (setarch -R); see launch.ts. */
  fixedAddresses: boolean
}

/** Every group in turn (all of HTTP_GROUPS unless told); `entry` is the bundled server script (see bundle.ts). */
export async function runHttp(
  entry: string,
  options: HttpOptions,
  log: (line: string) => void,
  groups: readonly HttpGroup[] = HTTP_GROUPS,
): Promise<HttpResults> {
  const rows: HttpRow[] = []
  const skipped: SkippedApp[] = []
  const wanted = (group: HttpGroup) =>
    !options.frameworks ||
    options.frameworks.some((name) => group.framework.toLowerCase().startsWith(name.trim().toLowerCase()))
  const cores = planCores()
  const fixedAddresses = setarchWorks()
  const launch = serverLaunch(cores, fixedAddresses)
  log(cores ? `HTTP: load generator on CPU ${cores.load}, servers on CPU ${cores.servers}` : 'HTTP: not pinned')
  return onLoadCpu(cores, async () => {
    for (const group of groups.filter(wanted)) {
      log(`HTTP: ${group.framework}`)
      const result = await runGroup(entry, group, options, log, launch)
      rows.push(...result.rows)
      skipped.push(...result.skipped)
    }
    return { rows, skipped, cores, fixedAddresses }
  })
}

/** Runs `work` with this process (the load generator) on its own CPU, then gives it every CPU back. */
async function onLoadCpu<T>(cores: CorePlan | undefined, work: () => Promise<T>): Promise<T> {
  if (!cores) return work()
  pinProcess(process.pid, cores.load)
  try {
    return await work()
  } finally {
    pinProcess(process.pid, cores.all)
  }
}
