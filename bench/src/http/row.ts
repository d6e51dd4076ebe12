import type { CaptureStats } from '@ringhook/core/capture'
import type { LoadResult } from './load.js'

/**
 * One server's readings in an HTTP run. Its own file, so that what reads rows (steady.ts, against.ts)
 * does not import the runner, which imports them.
 */
export interface HttpRow {
  framework: string
  app: string
  baseline: string
  /** One per slice, in order: slice k of every server in a group was taken in the same round. */
  runs: LoadResult[]
  /** Server CPU µs per delivery handled in each slice, in order. */
  cpuUs: number[]
  /** `steady`: the upper quartile of the slices' req/s (see steady.ts); min and max of the slices. */
  rps: { steady: number; min: number; max: number }
  /** The median of the slices' medians. */
  p50Ms: number
  /** The median of the slices' p99s: a slice's tail is a handful of stalls, so not its better quartile (steady.ts). */
  p99Ms: number
  errors: number
  peakRssMb: number
  /** Server process CPU (user + system, all threads) per delivery handled, the slices' lower quartile. */
  cpuUsPerRequest: number
  handled: number
  /** What the server's capture counted over the whole run, once its records were written. */
  capture?: CaptureStats
}
