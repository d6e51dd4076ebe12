import type { ColdOptions } from './coldstart/run.js'
import type { HttpOptions } from './http/run.js'
import type { TimingOptions } from './micro/harness.js'

export type Section = 'micro' | 'http' | 'memory' | 'queue' | 'limiter' | 'users' | 'durable' | 'bundle' | 'coldstart'
export const SECTIONS: readonly Section[] = [
  'micro',
  'http',
  'memory',
  'queue',
  'limiter',
  'users',
  'durable',
  'bundle',
  'coldstart',
]

export interface BenchOptions {
  quick: boolean
  sections: ReadonlySet<Section>
  /** Where the markdown report goes; undefined: RESULTS.md for a full run, .tmp/ otherwise. */
  out: string | undefined
  /** A line added to the report's header, e.g. which patch was applied. */
  note: string | undefined
  /** Another built checkout measured beside this one (src/against.ts). */
  against: string | undefined
  micro: TimingOptions
  http: HttpOptions
  /** `entries`: deliveries of each kind through a receiver to weigh one stored dedup entry. */
  memory: { ids: number; throughputMs: number; concurrency: number; entries: number }
  /** Jobs through @ringhook/bullmq's enqueue path, then through one worker of `concurrency`. */
  queue: { jobs: number; concurrency: number }
  /** Triggers a round through the client with each limiter (none, memory, Redis), and rounds. */
  limiter: { triggers: number; rounds: number }
  /** Lifecycle deliveries through each store, with users' states on and off, `inFlight` at once. */
  users: { deliveries: number; inFlight: number }
  /** Operations on the Durable Object stores in local workerd, `inFlight` at once (src/durable/run.ts). */
  durable: { operations: number; inFlight: number }
  /** Whole-process runs per cold-start contender. */
  coldstart: ColdOptions
}

// A full run's budget is 10 minutes, so that a change is judged in one sitting (issue 58; it took 17–22).
// The HTTP section is most of it: 18 servers × (warm-up + slices × 1 s), so 12 slices, not 28 (~4 min,
// not ~9); the upper quartile of 12 is still 3 slices. The rest was cut where rounds were many.
const FULL = {
  micro: { warmupMs: 500, rounds: 5, roundMs: 500 },
  http: { slices: 12, durationS: 1, warmupS: 1, connections: 50 },
  memory: { ids: 1_000_000, throughputMs: 1_000, concurrency: 50, entries: 5_000 },
  queue: { jobs: 3_000, concurrency: 10 },
  limiter: { triggers: 300, rounds: 3 },
  users: { deliveries: 1_000, inFlight: 16 },
  durable: { operations: 500, inFlight: 16 },
  coldstart: { runs: 5, warmups: 1 },
}

// Small enough for CI: every code path runs, no number means anything.
const QUICK = {
  micro: { warmupMs: 150, rounds: 3, roundMs: 100 },
  http: { slices: 2, durationS: 0.5, warmupS: 0.3, connections: 50 },
  memory: { ids: 300_000, throughputMs: 300, concurrency: 50, entries: 5_000 },
  queue: { jobs: 300, concurrency: 10 },
  limiter: { triggers: 100, rounds: 2 },
  users: { deliveries: 200, inFlight: 16 },
  durable: { operations: 200, inFlight: 16 },
  coldstart: { runs: 1, warmups: 0 },
}

const USAGE = `Usage: pnpm bench [--quick] [--only=micro,http,memory,queue,limiter,users,bundle,coldstart] [--frameworks=NAMES] [--out=FILE] [--note=TEXT]
  --quick   a smoke run (under a minute) that checks the bench still works; numbers are not meaningful
  --only    run some sections; the report then goes to .tmp/ unless --out is given
  --frameworks  run only the HTTP groups whose framework starts with one of these (e.g. fastify,koa)
  --out     where to write the markdown report (default: RESULTS.md for a full run of every section)
  --note    a line for the report's header, e.g. which patch the packages were built with
  --against another checkout of this repository, installed and built: its receiver.handle() and its
            ringhook servers run beside this one's in the micro and HTTP sections (after / before)`

/** Parses the command line; `--` separators that pnpm forwards are ignored. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  let quick = false
  let sections = new Set<Section>(SECTIONS)
  let out: string | undefined
  let note: string | undefined
  let against: string | undefined
  let frameworks: string[] | undefined
  for (const arg of argv) {
    if (arg === '--') continue
    if (arg === '--quick') quick = true
    else if (arg.startsWith('--only=')) sections = new Set(arg.slice(7).split(',').map(section))
    else if (arg.startsWith('--out=')) out = arg.slice(6)
    else if (arg.startsWith('--note=')) note = arg.slice(7)
    else if (arg.startsWith('--against=')) against = arg.slice(10)
    else if (arg.startsWith('--frameworks=')) frameworks = arg.slice(13).split(',')
    else {
      console.error(arg === '--help' ? USAGE : `Unknown argument: ${arg}\n${USAGE}`)
      process.exit(arg === '--help' ? 0 : 2)
    }
  }
  const profile = quick ? QUICK : FULL
  return { quick, sections, out, note, against, ...profile, http: { ...profile.http, frameworks } }
}

function section(name: string): Section {
  if ((SECTIONS as readonly string[]).includes(name)) return name as Section
  console.error(`Unknown section "${name}": choose from ${SECTIONS.join(', ')}`)
  process.exit(2)
}
