import { againstRatios, commitOf } from './against.js'
import type { ColdRow } from './coldstart/run.js'
import type { DurableRow } from './durable/run.js'
import { DYNALITE_CAVEAT } from './dynamodb/local.js'
import type { HttpResults, HttpRow } from './http/run.js'
import { ratioTo } from './http/steady.js'
import type { LimiterReport } from './limiter/run.js'
import type { EntryCostReport } from './memory/entry-cost.js'
import type { StoreThroughput } from './memory/run.js'
import type { GrowthReport } from './memory/store-growth.js'
import {
  BASELINE,
  BASELINE_VERIFY_ONLY,
  RINGHOOK_GESTURE,
  RINGHOOK_HANDLE,
  RINGHOOK_VERIFY,
} from './micro/contenders.js'
import type { Measured } from './micro/harness.js'
import type { BenchOptions } from './options.js'
import type { QueueReport } from './queue/run.js'
import type { SizeRow } from './size/run.js'
import { median } from './stats.js'
import type { SystemInfo } from './system.js'
import type { TargetCheck } from './targets.js'
import type { UsersReport } from './users/run.js'

export interface Results {
  system: SystemInfo
  command: string
  options: BenchOptions
  micro?: Measured[]
  dispatched?: Map<string, number>
  http?: HttpResults
  growth?: GrowthReport
  stores?: { rows: StoreThroughput[]; redisError?: string; postgresError?: string; dynamoDbError?: string }
  queue?: QueueReport
  queueError?: string
  limiter?: LimiterReport
  users?: UsersReport
  durable?: DurableRow[]
  size?: SizeRow[]
  coldStart?: ColdRow[]
  entryCost?: EntryCostReport
  /** node:hand and node:ringhook under the HTTP load, when the HTTP section did not run. */
  peakRss?: HttpRow[]
  /** Load averages when the report was written (the start's are in `system`). */
  loadAtEnd?: number[]
  targets: TargetCheck[]
  /** Hand-written notes on what limits each missed target (see limits.ts). */
  limits: string[]
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US')
const x = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(2)}×` : 'n/a')
const ms = (n: number): string => n.toFixed(2)
const mb = (n: number): string => n.toFixed(1)
const kb = (bytes: number): string => (bytes / 1000).toFixed(1)
const loads = (values: readonly number[] | undefined): string => (values ?? []).map((v) => v.toFixed(2)).join(', ')
const mark = (met: boolean): string => (met ? '✓' : '✗')

function table(head: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const rule = head.map((_, i) => (align?.[i] === 'r' ? '---:' : '---'))
  return [head, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n')
}

function header(r: Results): string {
  const { system: s, options: o } = r
  const versions = Object.entries(s.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ')
  const lines = [
    '# ringhook benchmark results',
    '',
    ...(o.quick
      ? ['> **Quick mode**: a smoke run that checks the bench still works. These numbers mean nothing.', '']
      : []),
    `- Date: ${s.date}`,
    `- Node ${s.node}, ${s.os}, ${s.cpus} CPUs (${s.cpuModel}), ${s.memoryGb} GB RAM`,
    `- Command: \`${r.command}\``,
    ...(o.note ? [`- Note: ${o.note}`] : []),
    `- Packages: ${versions}`,
    `- Load average (1, 5, 15 min) on ${s.cpus} cores: ${loads(s.loadAverage)} at the start, ${loads(r.loadAtEnd)} at the end`,
    `- Machine: shared with other work while it ran; ${placement(r)}. Ratios (same run, interleaved) are what to read; absolute numbers are this machine's.`,
    '- What each optimisation bought, measured before and after it: [HISTORY.md](HISTORY.md) (kept by hand; this file is rewritten by every full run).',
    '',
  ]
  return lines.join('\n')
}

/** Where the HTTP runs put the load generator and the servers. */
function placement(r: Results): string {
  if (!r.http) return 'no HTTP runs'
  const { cores, fixedAddresses } = r.http
  const where = cores
    ? `in the HTTP runs the load generator ran on CPU ${cores.load} and every server on CPU ${cores.servers} (taskset)`
    : 'in the HTTP runs the load generator and the servers were not pinned (no taskset, or fewer than two CPUs allowed): they shared whatever cores the scheduler gave them'
  const layout = fixedAddresses
    ? 'every server with its address space not randomised (setarch -R) and V8 seeded alike (src/http/launch.ts)'
    : 'every server with V8 seeded alike but its address space randomised as usual (no setarch -R here; src/http/launch.ts)'
  return `${where}; ${layout}`
}

function measuredText(t: TargetCheck): string {
  if (t.unit === '×') return x(t.measured)
  if (t.unit === 'records') return `${t.measured.toLocaleString('en-US')} ${t.unit}`
  return `${t.measured.toFixed(t.unit === 'KB' ? 1 : 2)} ${t.unit}`
}

function targetsSection(r: Results): string {
  const rows = r.targets.map((t) => [t.target, measuredText(t), t.required, mark(t.met)])
  const limits = r.limits.length ? `\n\n### What limits the missed targets\n\n${r.limits.join('\n\n')}` : ''
  return `## Targets\n\n${table(['target', 'measured', 'required', 'met'], rows)}${limits}\n`
}

function microSection(r: Results, micro: Measured[]): string {
  const rate = (name: string) => micro.find((m) => m.name === name)?.opsPerSec ?? Number.NaN
  const base = rate(BASELINE)
  const verifyOnly = rate(BASELINE_VERIFY_ONLY)
  const handle = rate(RINGHOOK_HANDLE)
  const rows = micro.map((m) => [
    [RINGHOOK_HANDLE, RINGHOOK_GESTURE, RINGHOOK_VERIFY].includes(m.name) ? `**${m.name}**` : m.name,
    int(m.opsPerSec),
    `${int(m.minOpsPerSec)}–${int(m.maxOpsPerSec)}`,
    x(m.opsPerSec / base),
    x(m.opsPerSec / verifyOnly),
    x(handle / m.opsPerSec),
  ])
  const { micro: t } = r.options
  const dispatched = [...(r.dispatched ?? [])].map(([name, n]) => `${name} ${int(n)}`).join(', ')
  return [
    '## Micro: one process, one ~250-byte payload',
    '',
    `Each operation verifies a distinct delivery (a pool of 16,384; the receiver's memory store runs on a clock of its own, 60 ms a reading, so an entry has expired by the time its delivery comes round again and dedup never short-circuits; the spec-complete baseline remembers its deliveries on a clock of its own too, as many at a time). ${t.rounds} interleaved rounds of ~${t.roundMs} ms after ${t.warmupMs} ms of warm-up each; median, with the slowest and fastest round.`,
    '',
    table(['contender', 'ops/s (median)', 'min–max', '× baseline', '× verify-only baseline', 'handle() ×'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
      'r',
    ]),
    '',
    '"× baseline": against the hand-rolled verify + JSON.parse. "handle() ×": how many times faster `receiver.handle()` is than that row (below 1 means slower).',
    dispatched ? `Handlers called: ${dispatched}.` : '',
    '',
  ].join('\n')
}

function httpSection(r: Results, http: HttpResults): string {
  const { http: o } = r.options
  const byApp = new Map(http.rows.map((row) => [row.app, row]))
  const rows = http.rows.map((row) => {
    const base = byApp.get(row.baseline)
    const self = row.app === row.baseline
    return [
      row.framework,
      self ? `${row.app} (baseline)` : row.app,
      int(row.rps.steady),
      `${int(row.rps.min)}–${int(row.rps.max)}`,
      self || !base ? '1.00×' : x(ratioTo(row, base, 'rps')),
      ms(row.p50Ms),
      ms(row.p99Ms),
      self || !base ? '1.00×' : x(ratioTo(row, base, 'p99')),
      int(row.cpuUsPerRequest),
      self || !base ? '1.00×' : x(ratioTo(row, base, 'cpu')),
      String(row.errors),
      mb(row.peakRssMb),
      `${Math.round(median(row.runs.map((run) => run.loadCpuShare)) * 100)}%`,
    ]
  })
  const skipped = http.skipped.map((s) => `- ${s.app}: not available (${s.reason})`).join('\n')
  return [
    '## HTTP: a keep-alive load generator against a server in its own process',
    '',
    `${o.connections} keep-alive connections, each with one request in flight, ${o.slices} slice(s) of ${o.durationS} s per server after a ${o.warmupS} s warm-up; a framework's servers take their slices in turn. Every request is a distinct, freshly signed delivery, sent as bytes built before the slice. req/s counts 2xx answers; latency is per response at full precision; errors are connection errors, timeouts and non-2xx answers; peak RSS is the server process's own high-water mark (VmHWM on Linux); server CPU is the server process's user + system time (all its threads) per delivery handled: the cost of the adapter itself. A server's req/s is the upper quartile of its slices and its CPU the lower quartile: a shared machine's cores change speed from one second to the next by themselves, which only ever slows a slice down, so the best-running quarter of a server's slices says what the server can do (src/http/steady.ts); min–max are the slowest and fastest slices. p50 and p99 are the medians of the slices' own. Each "× hand-rolled" is the server's reading over the baseline's, both from the same minutes. Load gen CPU is the load generator's own CPU time over the slice's wall time (median): well under 100%, so the server is what limits the rate.`,
    '',
    table(
      [
        'framework',
        'server',
        'req/s (upper quartile)',
        'min–max',
        '× hand-rolled',
        'p50 ms',
        'p99 ms',
        'p99 × hand-rolled',
        'server CPU µs/req',
        'CPU × hand-rolled',
        'errors',
        'peak RSS MB',
        'load gen CPU',
      ],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    "Servers: `*:hand` is that framework with a hand-rolled route that does what the spec asks of any receiver (node:crypto HMAC, timingSafeEqual, timestamp window, JSON.parse, the payload's fields checked, a delivery seen in the last 10 s acknowledged and not handled again); `*:ringhook` is the ringhook adapter, its memory store given a 256 MiB budget so that 10 s of deliveries fit at any rate here (the default 40 MiB holds 10 s of ~12,000 a second and would answer the rest 503 `store_full`); `node:octokit` is @octokit/webhooks' node middleware (GitHub's scheme); `node:ringhook-redis` is the node adapter with the Redis dedup store; `node:ringhook-queue` is the node adapter with `@ringhook/bullmq` attached: each delivery is stored as a BullMQ job in Redis before it is answered (the enqueue path; no worker runs); `node:ringhook-otel` is the node adapter with `@ringhook/otel` and an OpenTelemetry SDK registered, exporting to memory, and `node:hand-otel` the hand-rolled route instrumented by hand with the same SDK (see the OpenTelemetry section); `node:ringhook-capture` is the node adapter capturing every delivery (`createCapture`, default options) to the rotating JSON Lines file sink of `@ringhook/capture`; what its capture counted is read at the end of the run, once its records are written (the Targets table).",
    skipped ? `\n${skipped}` : '',
    '',
  ].join('\n')
}

function memorySection(r: Results): string {
  const parts = ['## Memory: the dedup stores', '']
  if (r.growth) {
    const rows = r.growth.checkpoints.map((c) => [
      int(c.ids),
      mb(c.rssMb),
      mb(c.heapUsedMb),
      int(c.storeSize),
      mb(c.storeMb ?? Number.NaN),
    ])
    parts.push(
      `${int(r.growth.count)} distinct event ids through \`createMemoryStore()\` with its default budget (40 MiB), each claimed then completed as the receiver does, 110 a second on the store's own clock (its 15-minute window then holds ~99,000); memory after a full GC, in a fresh process on bare node. ${int(r.growth.idsPerSec)} ids/s.`,
      '',
      table(['ids so far', 'RSS MB', 'heap used MB', 'entries in store', 'charged to budget MB'], rows, [
        'r',
        'r',
        'r',
        'r',
        'r',
      ]),
      '',
    )
  }
  if (r.stores) {
    const rows = r.stores.rows.map((s) => [s.store, int(s.opsPerSec)])
    const http = r.http?.rows.filter((row) => row.app === 'node:ringhook' || row.app === 'node:ringhook-redis') ?? []
    for (const row of http) rows.push([`HTTP, ${row.app} (req/s)`, int(row.rps.steady)])
    parts.push(
      `Store throughput: claim + complete per second, ${r.options.memory.concurrency} deliveries in flight; then the node adapter's req/s with each store (from the HTTP table).`,
      '',
      table(['store', 'per second'], rows, ['l', 'r']),
      r.stores.redisError ? `\nRedis store: not available (${r.stores.redisError}).` : '',
      r.stores.postgresError ? `\nPostgres stores: not available (${r.stores.postgresError}).` : '',
      r.stores.dynamoDbError ? `\nDynamoDB store: not available (${r.stores.dynamoDbError}).` : `\n${DYNALITE_CAVEAT}`,
      '',
    )
  }
  if (r.entryCost) parts.push(entryCostPart(r.entryCost))
  const rss = peakRssPart(r)
  if (rss) parts.push(rss)
  return parts.join('\n')
}

function entryCostPart(report: EntryCostReport): string {
  const rows = report.rows.map((e) => [e.kind, int(e.count), int(e.storeSize), int(e.bytesPerEntry)])
  return [
    '### Heap per stored dedup entry',
    '',
    "Distinct signed deliveries through `receiver.handle()` with the default memory store, after a warm-up, in a fresh process; heap used after a full GC before and after, divided by the deliveries. Only the store's entries outlive a delivery, so this is one entry: its key, claim token, expiry and the reply kept for duplicates. The store charges each entry an upper bound of this against its memory budget (`maxBytes`, 40 MiB by default; the @ringhook/core README lists what it charges).",
    '',
    table(['delivery', 'deliveries', 'entries in store', 'heap bytes per entry'], rows, ['l', 'r', 'r', 'r']),
    '',
  ].join('\n')
}

function peakRssPart(r: Results): string {
  const rows = (r.http?.rows ?? r.peakRss ?? []).filter((row) => row.app === 'node:hand' || row.app === 'node:ringhook')
  const hand = rows.find((row) => row.app === 'node:hand')
  if (!hand) return ''
  const cold = (app: string) => r.coldStart?.find((c) => c.runtime === 'node' && c.app === app)
  const body = rows.map((row) => [
    row.app,
    mb(row.peakRssMb),
    x(row.peakRssMb / hand.peakRssMb),
    cold(row.app) ? mb((cold(row.app) as ColdRow).rssMb) : 'n/a',
    int(row.rps.steady),
  ])
  const { http: o } = r.options
  return [
    '### Peak RSS under the HTTP load',
    '',
    `The node example's receiver (\`ringhook(receiver)\` on node:http, as in examples/node-http, without its per-event console.log) against the hand-rolled route, each in its own process on bare node under the standard load: ${o.connections} connections, distinct signed deliveries, ${o.slices} slice(s) of ${o.durationS} s after ${o.warmupS} s of warm-up${r.http ? ' (the node:http rows of the HTTP section)' : ''}. Peak RSS is the process's own high-water mark (VmHWM on Linux), Node's own ~40 MB included. "RSS after one delivery" is the cold-start section's figure for the same server: what the code costs before any load.`,
    '',
    table(['server', 'peak RSS MB', '× hand-rolled', 'RSS after one delivery MB', 'req/s (upper quartile)'], body, [
      'l',
      'r',
      'r',
      'r',
      'r',
    ]),
    '',
  ].join('\n')
}

function sizeSection(rows: readonly SizeRow[]): string {
  const hand = rows.find((row) => row.app.startsWith('hand-rolled'))
  const body = rows.map((row) => [
    row.app === 'ringhook' ? `**${row.app}**` : row.app,
    kb(row.bytes),
    kb(row.gzipBytes),
    hand ? x(row.gzipBytes / hand.gzipBytes) : 'n/a',
    row.parts
      .slice(0, 3)
      .map((part) => `${part.name} ${kb(part.bytes)}`)
      .join(', '),
  ])
  const apps = rows.map((row) => `\`${row.app}\`: ${row.description}`).join('; ')
  return [
    '## Bundle: a Worker that answers gestures',
    '',
    `A Cloudflare Worker receiving the service's webhooks, bundled from the packages' built dist as Wrangler bundles it (esbuild, ESM, browser platform with the \`workerd\` and \`worker\` conditions, minified); gzip at level 9. KB are 1,000 bytes. ${apps}.`,
    '',
    table(['app', 'minified KB', 'gzipped KB', 'gzip × hand-rolled', 'largest parts (minified KB)'], body, [
      'l',
      'r',
      'r',
      'r',
      'l',
    ]),
    '',
  ].join('\n')
}

function coldStartSection(r: Results, rows: readonly ColdRow[]): string {
  const body = rows.map((row) => {
    const base = rows.find((b) => b.runtime === row.runtime && b.app === row.baseline)
    const self = row.app === row.baseline
    return [
      self ? `${row.label} (baseline)` : row.label.includes('ringhook') ? `**${row.label}**` : row.label,
      ms(row.total.median),
      `${ms(row.total.min)}–${ms(row.total.max)}`,
      self || !base ? '1.00×' : x(row.total.median / base.total.median),
      ms(row.bootMs),
      ms(row.importMs),
      ms(row.firstMs),
      mb(row.rssMb),
    ]
  })
  const { coldstart: o } = r.options
  return [
    '## Cold start: a fresh process to the first answered delivery',
    '',
    `Each run starts a new process (node, bun or deno, the native binaries), which imports the contender, creates its receiver, listens on 127.0.0.1 and answers one signed \`gesture\` (verify, validate, dispatch, the vibe reply) posted by the bench as soon as the process says it listens. "total" is from spawn to the reply read by the bench: the runtime's boot is in it, as it is in a real cold start. ${o.runs} run(s) per contender${o.warmups ? ` after ${o.warmups} unmeasured round (the OS file cache, Deno's code cache)` : ''}, interleaved (run k of every contender, then run k+1); median total with the fastest and slowest. The other columns are medians, measured inside the process with \`performance.now()\` (from the process's start) except the first delivery, which is the bench's round trip. On node the fetch handlers are hosted by \`@hono/node-server\`, imported by every fetch contender alike; octokit answers GitHub's scheme (a \`ping\`, no reply body).`,
    '',
    table(
      [
        'runtime, host: contender',
        'total ms (median)',
        'min–max',
        '× hand-rolled',
        'runtime boot ms',
        'import ms',
        'first delivery ms',
        'RSS after MB',
      ],
      body,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n')
}

/**
 * The node adapter with and without OpenTelemetry, beside the hand-rolled route with and without
 * the same SDK, from the node:http group of the same run.
 */
function otelSection(r: Results): string {
  const rows = r.http?.rows ?? []
  const find = (app: string) => rows.find((row) => row.app === app)
  const pairs: [string, HttpRow | undefined, HttpRow | undefined][] = [
    ['node:hand', find('node:hand'), find('node:hand-otel')],
    ['node:ringhook', find('node:ringhook'), find('node:ringhook-otel')],
  ]
  const handTraced = find('node:hand-otel')
  const traced = find('node:ringhook-otel')
  if (!handTraced || !traced) return ''
  const line = (label: string, row: HttpRow, off: HttpRow) => [
    label,
    int(row.rps.steady),
    `${int(row.rps.min)}–${int(row.rps.max)}`,
    x(ratioTo(row, off, 'rps')),
    x(ratioTo(row, handTraced, 'rps')),
    ms(row.p99Ms),
    int(row.cpuUsPerRequest),
    x(ratioTo(row, off, 'cpu')),
    mb(row.peakRssMb),
  ]
  const body = pairs.flatMap(([label, off, on]) =>
    off && on ? [line(`${label} (no instrumentation)`, off, off), line(`${on.app}`, on, off)] : [],
  )
  return [
    '## OpenTelemetry: the node adapter traced and measured',
    '',
    "`node:ringhook-otel` is `node:ringhook` with `createReceiver({ instrumentation: otelInstrumentation() })`; `node:hand-otel` is the hand-rolled route instrumented by hand with the same SDK: a SERVER span a delivery continuing the request's `traceparent`, with the ten attributes `@ringhook/otel` sets on a first delivery answered 200 (method, route, event, secret index, the dedup key's hash, duplicate, handler duration, status, outcome, deadline reached), and the histogram of handler durations by event and handler outcome, the handler run in the span's context. Both register the SDK as the Node SDK does (async-hooks context manager, W3C propagator): spans through a `BatchSpanProcessor` into an `InMemorySpanExporter`, metrics read every second by a `PeriodicExportingMetricReader` into an `InMemoryMetricExporter` (both emptied every second). The SDK's own work is most of a traced delivery's cost, so `node:ringhook-otel` is held to the hand-rolled route with the same SDK. Same run, interleaved.",
    '',
    table(
      [
        'server',
        'req/s (upper quartile)',
        'min–max',
        '× uninstrumented',
        '× node:hand-otel',
        'p99 ms',
        'server CPU µs/req',
        'CPU × uninstrumented',
        'peak RSS MB',
      ],
      body,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n')
}

function queueSection(r: Results): string {
  const parts = ['## Queue: durable processing on BullMQ', '']
  const q = r.queue
  if (!q) return [...parts, `Not available (${r.queueError ?? 'not run'}).`, ''].join('\n')
  const http = r.http?.rows.filter((row) => row.app === 'node:ringhook' || row.app === 'node:ringhook-queue') ?? []
  const inline = http.find((row) => row.app === 'node:ringhook')
  const rows = http.map((row) => [
    `HTTP, ${row.app}${row.app === 'node:ringhook' ? ' (inline handlers)' : ' (enqueue path)'}`,
    int(row.rps.steady),
    ms(row.p99Ms),
    inline ? x(ratioTo(row, inline, 'rps')) : 'n/a',
    row.app === 'node:ringhook' ? '0' : q.enqueue.commandsPerDelivery.toFixed(2),
  ])
  rows.push(
    [
      `receiver.handle() storing jobs, one at a time, in process`,
      int(q.enqueue.perSecond),
      '',
      '',
      q.enqueue.commandsPerDelivery.toFixed(2),
    ],
    [
      `one worker, concurrency ${q.worker.concurrency}, no-op handler (jobs/s)`,
      int(q.worker.jobsPerSecond),
      '',
      '',
      q.worker.commandsPerJob.toFixed(2),
    ],
  )
  parts.push(
    `${int(q.jobs)} deliveries stored as jobs by \`receiver.handle()\` with \`createEventQueue().attach()\`, then drained by one \`createWorker()\`; the HTTP rows come from the node:http group above (same run). Redis commands are counted on ioredis' \`sendCommand\` in the measuring process, so they are exact whatever else uses the shared Redis; each is one round trip.`,
    '',
    table(['path', 'per second', 'p99 ms', '× inline', 'Redis commands per delivery or job'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
    ]),
    '',
  )
  return parts.join('\n')
}

function limiterSection(r: Results): string {
  const parts = ['## Limiter: what a trigger costs', '']
  const l = r.limiter
  if (!l || l.rows.length === 0) return [...parts, `Not available (${l?.error ?? 'not run'}).`, ''].join('\n')
  const none = l.rows.find((row) => row.limiter === 'none')
  const rows = l.rows.map((row) => [
    row.limiter,
    int(row.microsPerTrigger),
    `${int(row.range[1])}–${int(row.range[0])}`,
    none ? int(row.microsPerTrigger - none.microsPerTrigger) : 'n/a',
    row.redisCommands.toFixed(2),
  ])
  parts.push(
    `\`client.vibes.trigger()\` one at a time, ${int(l.triggers)} a round, ${l.rounds} rounds interleaved, against a node:http server in the same process that answers at once; limits set so high that nothing waits. The Redis limiter is \`createRedisLimitStore\` on the Redis on 127.0.0.1 (one Lua script a decision); Redis commands are counted on ioredis' \`sendCommand\`.`,
    '',
    table(['limiter', 'µs a trigger (median round)', 'rounds', 'µs over none', 'Redis commands a trigger'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
    ]),
    '',
  )
  return parts.join('\n')
}

function usersSection(u: UsersReport): string {
  const rows = u.rows.map((row) => [
    row.store,
    row.withoutUs.toFixed(1),
    row.withUs.toFixed(1),
    (row.withUs - row.withoutUs).toFixed(1),
    x(row.withUs / row.withoutUs),
  ])
  return [
    "## Users' states (@ringhook/users)",
    '',
    `One \`app.activated\` of a distinct user through \`receiver.handle()\`, ${int(u.rows[0]?.deliveries ?? 0)} a run, ${u.inFlight} in flight, in process: with the states kept (\`createUserStates().attach()\`; Postgres: \`users.apply(event, tx)\` in the inbox's transaction) beside the same delivery with a handler that does nothing, on the same store (memory; Redis dedup and states; the Postgres inbox; DynamoDB dedup and states). Each the better of two interleaved runs.`,
    '',
    table(['store', 'µs without states', 'µs with states', 'µs added', '× without'], rows, ['l', 'r', 'r', 'r', 'r']),
    u.rows.some((row) => row.store.startsWith('DynamoDB')) ? `\n${DYNALITE_CAVEAT}` : '',
    u.errors.length ? `\nNot available: ${u.errors.join('; ')}.` : '',
    '',
  ].join('\n')
}

function durableSection(r: Results, rows: DurableRow[]): string {
  return [
    '## Durable Objects (@ringhook/cloudflare), local workerd',
    '',
    `Each operation run in a loop inside a Worker on workerd (Miniflare), ${int(r.options.durable.operations)} a run, ${r.options.durable.inFlight} in flight, against the package's objects: every key on one object, then spread over 16. The better of two runs. Written rows wait for workerd's SQLite commit to this machine's disk; Cloudflare's network, its storage replication and objects on several machines are not in these figures (locally every object shares one process, so 16 shards serve no more than one).`,
    '',
    table(
      ['operation', 'objects', 'per second', 'µs each'],
      rows.map((row) => [row.operation, String(row.shards), int(row.perSecond), int(row.us)]),
      ['l', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n')
}

/** This checkout over the `--against` one, reading by reading, when it ran. */
function againstSection(r: Results): string {
  const ratios = againstRatios(r.micro, r.http?.rows)
  if (!r.options.against || ratios.length === 0) return ''
  return [
    `## This checkout (${commitOf('.') ?? 'not in git'}) against ${commitOf(r.options.against) ?? 'another'} (${r.options.against})`,
    '',
    'Each reading of this checkout over the same reading of the other, both from this run (micro rounds and HTTP slices interleaved). Above 1 is faster for operations and req/s, slower for p99 and CPU.',
    '',
    table(
      ['reading', 'this / other'],
      ratios.map(({ reading, ratio }) => [reading, x(ratio)]),
      ['l', 'r'],
    ),
    '',
  ].join('\n')
}

export function toMarkdown(r: Results): string {
  return [
    header(r),
    againstSection(r),
    targetsSection(r),
    r.micro ? microSection(r, r.micro) : '',
    r.http ? httpSection(r, r.http) : '',
    r.http ? otelSection(r) : '',
    r.growth || r.stores || r.entryCost ? memorySection(r) : '',
    r.queue || r.queueError ? queueSection(r) : '',
    r.limiter ? limiterSection(r) : '',
    r.users ? usersSection(r.users) : '',
    r.durable ? durableSection(r, r.durable) : '',
    r.size ? sizeSection(r.size) : '',
    r.coldStart ? coldStartSection(r, r.coldStart) : '',
  ]
    .filter(Boolean)
    .join('\n')
}
