import { quantile } from '../stats.js'
import type { HttpRow } from './row.js'

/**
 * A server's reading over its slices of load: the better quartile (the upper one for req/s, the
 * lower one for CPU a delivery), linearly interpolated.
 *
 * Why not the median, or a ratio per round: on the machines this runs on, the speed of a core
 * moves from one second to the next by itself. The same server, alone on its core, served 9,859
 * to 19,747 req/s in 30 consecutive 1-second slices, its CPU time a delivery moving inversely
 * (49–98 µs); consecutive quarter-seconds barely correlate (0.22), so two runs taken seconds
 * apart are not slowed alike and pairing them cancels little. What the machine does only ever
 * slows a server down, so the quarter of its slices that ran best says what the server itself
 * can do; the slower three quarters absorb the spells. The server's own pauses are not hidden by
 * this, because they come in every slice alike: `fastify:ringhook` under load collected garbage
 * 160 times in 16 s, 235 ms in all, none longer than 8 ms (--trace-gc).
 *
 * The route against itself (two processes of `fastify:hand`, 28 slices of 1 s each) read
 * 0.970–1.048× in thirteen runs this way; the median of paired 4-second runs, the method before,
 * read 0.947–1.072× in six (three of them with a 1-second dedup window); 0.958–1.034× in thirteen
 * once every server started with the same seeds and addresses (launch.ts). Latency is not read this way: a slice's p99 is set by a handful of
 * stalls, and its lower quartile read the route against itself 0.93–1.12× in eight runs, where
 * the slices' median read 0.97–0.99× in four (run.ts takes the median).
 */
export function betterQuartile(values: readonly number[], better: 'higher' | 'lower'): number {
  return quantile(values, better === 'higher' ? 0.75 : 0.25)
}

const READINGS = {
  rps: (row: HttpRow) => row.rps.steady,
  p99: (row: HttpRow) => row.p99Ms,
  cpu: (row: HttpRow) => row.cpuUsPerRequest,
} as const

/** One server's steady reading against another's, taken from interleaved slices of the same run. */
export function ratioTo(row: HttpRow, other: HttpRow, reading: keyof typeof READINGS): number {
  const theirs = READINGS[reading](other)
  return theirs > 0 ? READINGS[reading](row) / theirs : Number.NaN
}
