import { median } from '../stats.js'
import type { HttpRow } from './run.js'

const READINGS = {
  rps: (row: HttpRow, k: number) => row.runs[k]?.rps,
  p99: (row: HttpRow, k: number) => row.runs[k]?.p99Ms,
  cpu: (row: HttpRow, k: number) => row.cpuUs[k],
} as const

/**
 * How a server compares with another of its group: in each round, its run against the other's
 * (the two taken minutes apart at most, seconds apart in a pair), then the median of those
 * ratios. A spell of load from elsewhere on the machine that slows one round slows both runs of
 * it, so the ratio stays; a ratio of the two medians would take the spell in one and not the other.
 */
export function pairedRatio(row: HttpRow, other: HttpRow, reading: keyof typeof READINGS): number {
  const read = READINGS[reading]
  const ratios: number[] = []
  for (let k = 0; k < Math.min(row.runs.length, other.runs.length); k++) {
    const mine = read(row, k)
    const theirs = read(other, k)
    if (mine !== undefined && theirs !== undefined && theirs > 0) ratios.push(mine / theirs)
  }
  return ratios.length > 0 ? median(ratios) : Number.NaN
}
