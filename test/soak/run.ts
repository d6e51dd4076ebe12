// One soak run per adapter: start the receiver in a child process, warm it up, note its memory,
// load it for the given time, note its memory again, stop it with SIGTERM (graceful shutdown),
// and hold its handler counts against what the load generator sent.
import { type ChildProcess, fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type LoadResult, runLoad } from './load.js'
import type { AdapterName, RunnerMessage, ServerMessage } from './server.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SECRET = 'whsec_soak_secret'

/**
 * Adapters whose package exists in this checkout (packages are added over time). `withFetch` adds
 * core's own `receiver.fetch` on @hono/node-server, which needs no adapter package.
 */
export function availableAdapters(withFetch = false): AdapterName[] {
  const packages = (['node', 'express', 'hono'] as const).filter((name) =>
    existsSync(join(ROOT, 'packages', name, 'src', 'index.ts')),
  )
  return withFetch ? [...packages, 'fetch'] : packages
}

export interface SoakOptions {
  adapter: AdapterName
  seconds: number
  concurrency?: number
  seed?: number
  /** Seconds of load before the baseline memory sample. Default: a fifth of the run, at least 1. */
  warmupSeconds?: number
}

export interface SoakResult {
  adapter: AdapterName
  load: LoadResult
  unique: number
  acknowledged: number
  /** Unique deliveries whose handler completed exactly once. */
  exactlyOnce: number
  /** Ids handled more than once, or handled without being sent as valid deliveries. */
  violations: string[]
  handlerCalls: number
  memory: {
    heapBeforeMb: number
    heapAfterMb: number
    heapMaxMb: number
    /** Heap after a full GC at each sample: warmed up, then through the run, then at the end. */
    heapSeriesMb: number[]
    rssBeforeMb: number
    rssAfterMb: number
    storeEntries: number
  }
  shutdown: { exitCode: number | null; drained: boolean }
  /** The verdict: every criterion of the soak held. */
  ok: boolean
  failures: string[]
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

function startServer(adapter: AdapterName, ids: number): ChildProcess {
  return fork(join(ROOT, 'test/soak/server.ts'), [adapter], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, SOAK_SECRET: SECRET, SOAK_IDS: String(ids) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
}

function nextMessage<T extends ServerMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs = 30_000,
): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(() => reject(new Error(`no '${type}' message within ${timeoutMs} ms`))),
      timeoutMs,
    )
    const onMessage = (message: ServerMessage) => {
      if (message.type === type) done(() => resolve(message as Extract<ServerMessage, { type: T }>))
    }
    const onExit = (code: number | null) => done(() => reject(new Error(`server exited (${code}) before '${type}'`)))
    const done = (then: () => void) => {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('exit', onExit)
      then()
    }
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

type MemorySample = Extract<ServerMessage, { type: 'memory' }>

async function memory(child: ChildProcess): Promise<MemorySample> {
  const reply = nextMessage(child, 'memory')
  child.send({ type: 'memory' } satisfies RunnerMessage)
  return reply
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { adapter, seconds } = options
  const concurrency = options.concurrency ?? 16
  const seed = options.seed ?? 20_261_122
  const warmup = options.warmupSeconds ?? Math.max(1, seconds / 5)
  // Id ranges (valid and forged, for the run and for the warm-up) sized for 10 000 requests/s.
  const capacity = Math.ceil(Math.max(seconds, warmup) * 10_000) + 1000
  const child = startServer(adapter, 4 * capacity)
  try {
    const { port } = await nextMessage(child, 'ready')
    const base = { url: `http://127.0.0.1:${port}/webhooks`, secret: SECRET, concurrency, capacity }
    // Warm-up: JIT, connection pools and the dedup store reach their working size.
    const warm = await runLoad({ ...base, seconds: warmup, seed: seed + 1, idBase: 2 * capacity })
    const samples = [await memory(child)]
    let loading = true
    const sampling = (async () => {
      const every = Math.max(1000, (seconds * 1000) / 6)
      for (let next = Date.now() + every; ; next += every) {
        await new Promise((resolve) => setTimeout(resolve, next - Date.now()))
        if (!loading) return
        samples.push(await memory(child))
      }
    })()
    const load = await runLoad({ ...base, seconds, seed, idBase: 0 })
    loading = false
    await sampling
    samples.push(await memory(child))

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const final = nextMessage(child, 'final')
    child.kill('SIGTERM')
    const { completions, calls, drained } = await final
    const exitCode = await exited

    return judge(adapter, [warm, load], new Map(completions), calls, samples, { exitCode, drained }, load)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

function judge(
  adapter: AdapterName,
  loads: LoadResult[],
  completions: Map<number, number>,
  handlerCalls: number,
  samples: MemorySample[],
  shutdown: SoakResult['shutdown'],
  load: LoadResult,
): SoakResult {
  const sent = new Map(loads.flatMap((l) => [...l.deliveries]))
  const rejected = new Set(loads.flatMap((l) => [...l.rejectedIds]))
  const violations: string[] = []
  const before = samples[0] as MemorySample
  const after = samples.at(-1) as MemorySample
  let exactlyOnce = 0
  let acknowledged = 0
  for (const [id, delivery] of sent) {
    const count = completions.get(id) ?? 0
    if (delivery.acknowledged) acknowledged++
    if (count === 1) exactlyOnce++
    else violations.push(`${id}: handled ${count}×${delivery.acknowledged ? '' : ' (never acknowledged)'}`)
  }
  for (const id of completions.keys()) {
    if (!sent.has(id))
      violations.push(`${id}: handled but ${rejected.has(id) ? 'forged, tampered or stale' : 'never sent'}`)
  }
  const heapGrowth = mb(after.heapUsed - before.heapUsed)
  const failures = [
    ...(loads.some((l) => l.unexpected5xx > 0)
      ? [`${sum(loads, 'unexpected5xx')} unexpected 5xx for valid traffic`]
      : []),
    ...(loads.some((l) => l.wrongAnswers.length > 0)
      ? [`wrong answers: ${JSON.stringify(loads.flatMap((l) => l.wrongAnswers).slice(0, 5))}`]
      : []),
    ...(violations.length > 0 ? [`exactly-once violated: ${violations.slice(0, 5).join('; ')}`] : []),
    ...(acknowledged < sent.size ? [`${sent.size - acknowledged} deliveries never acknowledged`] : []),
    // "Flat": a full GC leaves no more than a few MiB beyond the warmed-up baseline.
    ...(heapGrowth > 16 ? [`heap grew ${heapGrowth} MiB after GC`] : []),
    ...(shutdown.exitCode !== 0 || !shutdown.drained
      ? [`shutdown: exit ${shutdown.exitCode}, drained ${shutdown.drained}`]
      : []),
  ]
  return {
    adapter,
    load,
    unique: sent.size,
    acknowledged,
    exactlyOnce,
    violations,
    handlerCalls,
    memory: {
      heapBeforeMb: mb(before.heapUsed),
      heapAfterMb: mb(after.heapUsed),
      heapMaxMb: mb(Math.max(...samples.map((s) => s.heapUsed))),
      heapSeriesMb: samples.map((s) => mb(s.heapUsed)),
      rssBeforeMb: mb(before.rss),
      rssAfterMb: mb(after.rss),
      storeEntries: after.storeEntries,
    },
    shutdown,
    ok: failures.length === 0,
    failures,
  }
}

const sum = (loads: LoadResult[], key: 'unexpected5xx') => loads.reduce((total, l) => total + l[key], 0)
