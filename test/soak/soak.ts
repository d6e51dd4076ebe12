// The soak: `pnpm exec tsx test/soak/soak.ts [--seconds 60] [--adapters node,express,hono]
// [--concurrency 16] [--no-docs]`. Runs every available adapter in turn, prints what it saw, and
// rewrites the load section of docs/reliability.md with it. Exits 1 when a criterion failed.
import { pathToFileURL } from 'node:url'
import { updateSection } from '../reliability/report-file.js'
import { availableAdapters, runSoak, type SoakResult } from './run.js'
import type { AdapterName } from './server.js'

interface Args {
  seconds: number
  adapters: AdapterName[]
  concurrency: number
  docs: boolean
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { seconds: 60, adapters: availableAdapters(true), concurrency: 16, docs: true }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = () => {
      const next = argv[++i]
      if (next === undefined) throw new Error(`${flag} needs a value`)
      return next
    }
    if (flag === '--seconds') args.seconds = Number(value())
    else if (flag === '--concurrency') args.concurrency = Number(value())
    else if (flag === '--adapters') args.adapters = value().split(',') as AdapterName[]
    else if (flag === '--no-docs') args.docs = false
    else throw new Error(`unknown option ${flag}`)
  }
  if (!(args.seconds > 0) || !(args.concurrency > 0)) throw new Error('--seconds and --concurrency must be positive')
  return args
}

const count = (n: number) => n.toLocaleString('en-US')

const LABELS: Record<AdapterName, string> = {
  node: '`@ringhook/node`',
  express: '`@ringhook/express` on Express 5',
  hono: '`@ringhook/hono` on `@hono/node-server`',
  fetch: '`receiver.fetch` on `@hono/node-server`',
}

/** The markdown table of a soak, one row per adapter. */
export function soakTable(results: readonly SoakResult[], args: Pick<Args, 'seconds' | 'concurrency'>): string {
  const rows = results.map((r) => {
    const { load, memory } = r
    const byStatus = Object.entries(load.statuses)
      .map(([status, n]) => `${status} ×${count(n)}`)
      .join(', ')
    return [
      LABELS[r.adapter],
      `${count(load.requests)} (${count(Math.round(load.requests / load.seconds))}/s)`,
      byStatus,
      `${count(r.exactlyOnce)} / ${count(r.unique)}`,
      count(load.unexpected5xx),
      `${memory.heapSeriesMb.join(' → ')} MiB (RSS ${memory.rssBeforeMb} → ${memory.rssAfterMb})`,
      `${load.latencyMs.p50.toFixed(1)} / ${load.latencyMs.p99.toFixed(1)} ms`,
      r.shutdown.exitCode === 0 && r.shutdown.drained ? 'clean (exit 0)' : `exit ${r.shutdown.exitCode}`,
      r.ok ? 'pass' : `**FAIL**: ${r.failures.join('; ')}`,
    ]
  })
  const header = [
    'adapter',
    'requests',
    'answers',
    'handled exactly once',
    '5xx to valid traffic',
    'heap after full GC, through the run',
    'latency p50 / p99',
    'SIGTERM',
    'verdict',
  ]
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
  return [
    `${args.seconds} s per adapter after a warm-up, ${args.concurrency} requests in flight, Node ${process.version}, ` +
      `${new Date().toISOString().slice(0, 10)}. Traffic: 60 % new deliveries (5 % of them fail once in the handler ` +
      'and are retried), 10 % deliveries sent again after their 2xx, 5 % sent twice at once, 10 % forged ' +
      '(wrong secret), 5 % tampered after signing, 10 % stale (timestamp 400 s old). Valid deliveries are retried ' +
      'until a 2xx, re-signed each time, as the service does.',
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
  ].join('\n')
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const results: SoakResult[] = []
  for (const adapter of args.adapters) {
    console.log(`soak: ${adapter} for ${args.seconds} s …`)
    const result = await runSoak({ adapter, seconds: args.seconds, concurrency: args.concurrency })
    console.log(
      `  ${result.ok ? 'pass' : 'FAIL'}: ${result.load.requests} requests, ${result.exactlyOnce}/${result.unique} handled exactly once, ` +
        `heap ${result.memory.heapSeriesMb.join(' → ')} MiB, grew ${result.memory.grownBytes} B (store ${result.memory.storeGrownBytes} B), ` +
        `${result.memory.unchargedPerRequestBytes} B/request beyond the store${result.ok ? '' : `\n  ${result.failures.join('\n  ')}`}`,
    )
    results.push(result)
  }
  const table = soakTable(results, args)
  console.log(`\n${table}`)
  if (args.docs) {
    updateSection('soak', table)
    console.log('\ndocs/reliability.md: load section updated')
  }
  process.exit(results.every((r) => r.ok) ? 0 : 1)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
