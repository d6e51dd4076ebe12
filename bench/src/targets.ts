import type { CaptureStats } from '@ringhook/core/capture'
import type { ColdRow } from './coldstart/run.js'
import type { HttpRow } from './http/run.js'
import { ratioTo } from './http/steady.js'
import type { GrowthReport } from './memory/store-growth.js'
import { BASELINE, OCTOKIT_RECEIVE, RINGHOOK_HANDLE, RINGHOOK_VERIFY, STANDARD_VERIFY } from './micro/contenders.js'
import type { Measured } from './micro/harness.js'
import type { SizeRow } from './size/run.js'

export interface TargetCheck {
  target: string
  measured: number
  /** How `measured` reads: a ratio (×), megabytes, kilobytes (1,000 bytes) or a count of records. */
  unit: '×' | 'MB' | 'KB' | 'records'
  required: string
  met: boolean
}

const ratio = (target: string, measured: number, atLeast: number): TargetCheck => ({
  target,
  measured,
  unit: '×',
  required: `≥ ${atLeast.toFixed(2)}×`,
  met: measured >= atLeast,
})

/** The micro targets, as ratios measured in the same run. */
export function microTargets(results: readonly Measured[]): TargetCheck[] {
  const rate = (name: string) => results.find((r) => r.name === name)?.opsPerSec ?? Number.NaN
  const handle = rate(RINGHOOK_HANDLE)
  return [
    ratio('receiver.handle() vs @octokit/webhooks verifyAndReceive()', handle / rate(OCTOKIT_RECEIVE), 1),
    ratio('receiver.handle() vs standardwebhooks Webhook.verify()', handle / rate(STANDARD_VERIFY), 1),
    ratio('receiver.handle() vs hand-rolled verify + parse', handle / rate(BASELINE), 0.5),
    ratio('verifyWebhook() vs hand-rolled verify + parse', rate(RINGHOOK_VERIFY) / rate(BASELINE), 1),
  ]
}

/** Every ringhook adapter against its own framework's hand-rolled route. */
export function httpTargets(rows: readonly HttpRow[]): TargetCheck[] {
  const checks: TargetCheck[] = []
  for (const row of rows) {
    if (!/:ringhook$/.test(row.app)) continue
    const base = rows.find((r) => r.app === row.baseline)
    if (!base) continue
    checks.push(ratio(`${row.framework}: ringhook req/s vs hand-rolled`, ratioTo(row, base, 'rps'), 0.95))
    const p99 = ratioTo(row, base, 'p99')
    checks.push({
      target: `${row.framework}: ringhook p99 vs hand-rolled`,
      measured: p99,
      unit: '×',
      required: '≤ 1.10×',
      met: p99 <= 1.1,
    })
  }
  const inline = rows.find((r) => r.app === 'node:ringhook')
  const queued = rows.find((r) => r.app === 'node:ringhook-queue')
  const traced = rows.find((r) => r.app === 'node:ringhook-otel')
  const handTraced = rows.find((r) => r.app === 'node:hand-otel')
  const captured = rows.find((r) => r.app === 'node:ringhook-capture')
  if (handTraced && traced) {
    checks.push(
      ratio(
        'OpenTelemetry (@ringhook/otel, SDK in memory) req/s vs the hand-rolled route with the same SDK, node:http',
        ratioTo(traced, handTraced, 'rps'),
        0.9,
      ),
    )
  }
  if (inline && captured) {
    checks.push(
      ratio('capture of every delivery (file sink) req/s vs none, node:http', ratioTo(captured, inline, 'rps'), 0.9),
    )
  }
  if (captured?.capture) checks.push(captureLosses(captured.capture))
  if (inline && queued) {
    checks.push(
      ratio('enqueue path (@ringhook/bullmq) req/s vs inline receiver, node:http', ratioTo(queued, inline, 'rps'), 0.5),
    )
  }
  return checks
}

/**
 * Capture under the HTTP load: every delivery it chose was written by the end of the run (records
 * over its byte budget are allowed, and counted in the target's name).
 */
function captureLosses(stats: CaptureStats): TargetCheck {
  const lost = stats.captured - stats.written
  return {
    target: `capture under the HTTP load, node:http: records lost of ${stats.captured.toLocaleString('en-US')} captured (${stats.dropped.toLocaleString('en-US')} over its byte budget, counted)`,
    measured: lost,
    unit: 'records',
    required: '0',
    met: lost === 0 && stats.failed + stats.stalled === 0 && stats.pending === 0,
  }
}

/** Bounded means: once the window is full, more ids leave the heap where it was and the store in its budget. */
export const HEAP_GROWTH_TOLERANCE_MB = 4

export function memoryTargets(report: GrowthReport, budgetBytes: number): TargetCheck[] {
  // After 15 minutes at 110 ids/s (99,000 ids) the window is full and entries expire as fast as they
  // come; the store's Map doubles its table once more soon after (~131,000 ids), then stays.
  const full = report.checkpoints.find((c) => c.ids >= report.count / 2 && c.ids >= 150_000)
  const first = report.checkpoints[0]
  const last = report.checkpoints.at(-1)
  if (!full || !first || !last) return []
  const growth = last.heapUsedMb - full.heapUsedMb
  const budgetMb = budgetBytes / 1024 / 1024
  return [
    {
      target: `memory store: heap growth from ${full.ids.toLocaleString('en-US')} to ${last.ids.toLocaleString('en-US')} ids`,
      measured: growth,
      unit: 'MB',
      required: `< ${HEAP_GROWTH_TOLERANCE_MB} MB; store and heap held ≤ its ${budgetMb} MiB budget`,
      met:
        growth < HEAP_GROWTH_TOLERANCE_MB &&
        report.checkpoints.every((c) => c.storeMb <= budgetMb && c.heapUsedMb - first.heapUsedMb <= budgetMb),
    },
  ]
}

const atMost = (target: string, measured: number, limit: number): TargetCheck => ({
  target,
  measured,
  unit: '×',
  required: `≤ ${limit.toFixed(2)}×`,
  met: measured <= limit,
})

/** The Workers bundle of a receiver with one gesture handler, gzipped. */
export const BUNDLE_GZIP_LIMIT_KB = 40

export function sizeTargets(rows: readonly SizeRow[]): TargetCheck[] {
  const ringhook = rows.find((r) => r.app === 'ringhook')
  if (!ringhook) return []
  const kb = ringhook.gzipBytes / 1000
  return [
    {
      target: 'bundle: Worker with one gesture handler, minified + gzipped',
      measured: kb,
      unit: 'KB',
      required: `≤ ${BUNDLE_GZIP_LIMIT_KB} KB`,
      met: kb <= BUNDLE_GZIP_LIMIT_KB,
    },
  ]
}

/** Every ringhook cold start against the hand-rolled route on the same runtime and host. */
export function coldStartTargets(rows: readonly ColdRow[]): TargetCheck[] {
  return rows
    .filter((row) => row.app.endsWith(':ringhook'))
    .flatMap((row) => {
      const base = rows.find((r) => r.runtime === row.runtime && r.app === row.baseline)
      if (!base) return []
      const what = row.app === 'node:ringhook' ? 'node adapter' : 'fetch handler'
      return [atMost(`cold start: ${row.runtime} ${what} vs hand-rolled`, row.total.median / base.total.median, 1.5)]
    })
}

/** Peak RSS of the node example's receiver under the HTTP load, against the hand-rolled route's. */
export function peakRssTargets(rows: readonly HttpRow[]): TargetCheck[] {
  const hand = rows.find((r) => r.app === 'node:hand')
  const ringhook = rows.find((r) => r.app === 'node:ringhook')
  if (!hand || !ringhook) return []
  return [atMost('memory: node:http peak RSS under load vs hand-rolled', ringhook.peakRssMb / hand.peakRssMb, 1.2)]
}
