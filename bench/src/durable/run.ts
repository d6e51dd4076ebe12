// The Durable Object stores' costs in local workerd (Miniflare): a delivery's claim and completion on
// the dedup store, and a user's apply on the users' store, each run as a loop inside workerd, with
// all keys on one object and spread over 16. Usage: pnpm --dir bench bench:durable [--quick]
//
// What it can tell: what one object's operations cost in workerd's own SQLite (the storage code,
// the transaction, the output gate, a request between isolates), and so a ceiling for one object.
// What it cannot: Cloudflare's network between a Worker and its objects (each call there crosses
// it, often to another location), storage replication, or several objects on several machines:
// locally every object shares one workerd process, so more shards cannot serve more here.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, '..', '..', '..')
const quick = process.argv.includes('--quick')
const N = quick ? 200 : 1000
const IN_FLIGHT = 16
const CHUNK = 200

export interface DurableRow {
  operation: string
  shards: number
  /** Operations (a delivery: claim + complete) a second. */
  perSecond: number
  /** Microseconds each, wall time over the run. */
  us: number
}

export async function runDurableBench(n = N, inFlight = IN_FLIGHT): Promise<DurableRow[]> {
  const bundle = await build({
    entryPoints: [join(HERE, 'worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    write: false,
    logLevel: 'silent',
  })
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]?.text ?? '',
    compatibilityDate: '2025-07-01',
    durableObjects: { RINGHOOK: { className: 'RinghookObject', useSQLite: true } },
  })
  const rows: DurableRow[] = []
  try {
    for (const [path, operation] of [
      ['/claim', 'a delivery: claim, then complete'],
      ['/duplicate', 'a duplicate: a claim answered from a stored reply (no write)'],
      ['/apply', "a user's apply"],
    ] as const) {
      for (const shards of [1, 16]) {
        // Twice each, the better kept: a shared machine only ever slows a run down.
        let best = Number.POSITIVE_INFINITY
        for (let round = 0; round < 2; round++) {
          // In requests of at most 200 operations: workerd fails a request far past that.
          let ms = 0
          for (let done = 0; done < n; done += CHUNK) {
            const size = Math.min(CHUNK, n - done)
            const response = await mf.dispatchFetch(
              `http://bench${path}?n=${size}&inFlight=${inFlight}&shards=${shards}`,
            )
            ms += ((await response.json()) as { ms: number }).ms
          }
          best = Math.min(best, ms)
        }
        rows.push({ operation, shards, perSecond: Math.round((n / best) * 1000), us: Math.round((best / n) * 1000) })
      }
    }
  } finally {
    await mf.dispose()
  }
  return rows
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await runDurableBench()
  console.log(`Durable Object stores, local workerd, ${N} operations a run, ${IN_FLIGHT} in flight\n`)
  console.log('| operation | objects | per second | µs each |\n| --- | ---: | ---: | ---: |')
  for (const row of rows) console.log(`| ${row.operation} | ${row.shards} | ${row.perSecond} | ${row.us} |`)
}
