/**
 * `pnpm bench` entry: micro (one process), HTTP (a keep-alive load generator against servers in child processes),
 * memory (dedup stores, peak RSS), queue (@ringhook/bullmq), bundle (Workers bundle size) and
 * cold start (fresh processes on node, bun and deno), then a markdown report. See ../README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { basename, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_MEMORY_STORE_BYTES } from '@ringhook/core/store'
import { AGAINST_SUFFIX, againstDir, againstKit, againstServer } from './against.js'
import { bundleChildren } from './bundle.js'
import { runColdStart } from './coldstart/run.js'
import { runDurableBench } from './durable/run.js'
import { NODE_MEMORY_GROUP, runHttp } from './http/run.js'
import { runLimiterBench } from './limiter/run.js'
import { limitsFor } from './limits.js'
import { runEntryCost, runStoreGrowth, runStoreThroughput } from './memory/run.js'
import { dispatched, microContenders, receiverContenders } from './micro/contenders.js'
import { measureAll } from './micro/harness.js'
import { parseOptions, SECTIONS } from './options.js'
import { rewriteReadmePerformance } from './performance.js'
import { runQueueBench } from './queue/run.js'
import { type Results, toMarkdown } from './report.js'
import { runSize } from './size/run.js'
import { systemInfo } from './system.js'
import { coldStartTargets, httpTargets, memoryTargets, microTargets, peakRssTargets, sizeTargets } from './targets.js'
import { runUsersBench } from './users/run.js'

const started = performance.now()
const log = (line: string): void => console.log(line)
let mark = started
/** Logs how long the section just run took: a full run's budget is 10 minutes, checked section by section. */
const took = (section: string): void => {
  const now = performance.now()
  log(`${section}: ${((now - mark) / 1000).toFixed(1)} s`)
  mark = now
}
const options = parseOptions(process.argv.slice(2))
const args = process.argv.slice(2).filter((a) => a !== '--')
const results: Results = {
  system: systemInfo(),
  command: ['pnpm bench', ...args].join(' '),
  options,
  targets: [],
  limits: [],
}

const children = await bundleChildren()
took('bundling the servers')
const against = options.against === undefined ? undefined : againstDir(options.against)
if (against) log(`Against: ${against}, measured beside this checkout`)

if (options.sections.has('micro')) {
  const contenders = against
    ? [...microContenders, ...receiverContenders(await againstKit(against), AGAINST_SUFFIX)]
    : microContenders
  log(`Micro: ${contenders.length} contenders`)
  results.micro = await measureAll(contenders, options.micro)
  results.dispatched = dispatched
  results.targets.push(...microTargets(results.micro))
  took('micro')
}

if (options.sections.has('http')) {
  const http = against ? { ...options.http, against: await againstServer(against) } : options.http
  results.http = await runHttp(children.server, http, log)
  results.targets.push(...httpTargets(results.http.rows))
  took('http')
}

if (options.sections.has('memory')) {
  log(`Memory: ${options.memory.ids.toLocaleString('en-US')} ids through the memory store`)
  results.growth = await runStoreGrowth(children.storeGrowth, options.memory.ids)
  results.stores = await runStoreThroughput(options.memory.throughputMs, options.memory.concurrency)
  results.targets.push(...memoryTargets(results.growth, DEFAULT_MEMORY_STORE_BYTES))
  results.entryCost = await runEntryCost(children.entryCost, options.memory.entries)
  // Peak RSS under the standard HTTP load: from the HTTP section when it ran, else just that pair.
  if (!results.http) {
    log('Memory: peak RSS of node:hand and node:ringhook under the HTTP load')
    results.peakRss = (
      await runHttp(children.server, { ...options.http, frameworks: undefined }, log, [NODE_MEMORY_GROUP])
    ).rows
  }
  results.targets.push(...peakRssTargets(results.http?.rows ?? results.peakRss ?? []))
  took('memory')
}

if (options.sections.has('queue')) {
  log(`Queue: ${options.queue.jobs.toLocaleString('en-US')} deliveries through @ringhook/bullmq, then one worker`)
  try {
    results.queue = await runQueueBench(options.queue.jobs, options.queue.concurrency)
  } catch (error) {
    results.queueError = error instanceof Error ? error.message : String(error)
  }
  took('queue')
}

if (options.sections.has('limiter')) {
  log(`Limiter: ${options.limiter.triggers} triggers a round through the client, no limiter, memory, Redis`)
  results.limiter = await runLimiterBench(options.limiter.triggers, options.limiter.rounds)
  took('limiter')
}

if (options.sections.has('users')) {
  log(
    `Users' states: ${options.users.deliveries.toLocaleString('en-US')} lifecycle deliveries a store, states on and off`,
  )
  results.users = await runUsersBench(options.users.deliveries, options.users.inFlight)
  took('users')
}

if (options.sections.has('durable')) {
  log(`Durable Objects: ${options.durable.operations.toLocaleString('en-US')} operations a run, in local workerd`)
  results.durable = await runDurableBench(options.durable.operations, options.durable.inFlight)
}

if (options.sections.has('bundle')) {
  log('Bundle: Workers receivers bundled with esbuild')
  results.size = await runSize()
  results.targets.push(...sizeTargets(results.size))
  took('bundle')
}

if (options.sections.has('coldstart')) {
  log('Cold start: fresh processes on node, bun and deno')
  results.coldStart = await runColdStart(children.coldStart, options.coldstart, log)
  results.targets.push(...coldStartTargets(results.coldStart))
  took('coldstart')
}

results.limits = limitsFor(results.targets)
results.loadAtEnd = loadavg()
const markdown = toMarkdown(results)
const complete = options.sections.size === SECTIONS.length && !options.quick && !against
const name = options.quick ? 'RESULTS.quick.md' : 'RESULTS.partial.md'
const out = options.out ?? fileURLToPath(new URL(complete ? '../RESULTS.md' : `../.tmp/${name}`, import.meta.url))
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, markdown)
log(`\n${markdown}`)
// A full run's report is what the root README's Performance figures quote (performance.ts); `--against`
// runs measure this checkout as fully and only add rows, so they count.
if (basename(out) === 'RESULTS.md' && options.sections.size === SECTIONS.length && !options.quick) {
  try {
    log(`README's Performance figures rewritten from this run: ${rewriteReadmePerformance(out)}`)
  } catch (error) {
    log(`README's Performance figures NOT rewritten: ${error instanceof Error ? error.message : String(error)}`)
  }
}
log(`Report written to ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
