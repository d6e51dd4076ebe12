// The HTTP section's readings: what the bench's targets for every adapter are read from.
import { describe, expect, it } from 'vitest'
import type { LoadResult } from './load.js'
import type { HttpRow } from './run.js'
import { betterQuartile, ratioTo } from './steady.js'

function row(steady: number, p99Ms = 5, cpuUsPerRequest = 40): HttpRow {
  const run: LoadResult = { rps: steady, p50Ms: 1, p99Ms, errors: 0, signedLive: 0, loadCpuShare: 0.3 }
  return {
    framework: 'test',
    app: 'test:app',
    baseline: 'test:hand',
    runs: [run],
    cpuUs: [cpuUsPerRequest],
    rps: { steady, min: steady, max: steady },
    p50Ms: 1,
    p99Ms,
    errors: 0,
    peakRssMb: 0,
    cpuUsPerRequest,
    handled: 0,
  }
}

describe('betterQuartile', () => {
  it('is not moved by spells that slowed up to three quarters of the slices', () => {
    const steady = [20_000, 20_000, 20_000, 20_000, 20_000, 20_000, 20_000, 20_000, 20_000]
    const spells = [20_000, 9_000, 12_000, 11_000, 20_000, 10_000, 13_000, 10_500, 20_000]
    expect(betterQuartile(spells, 'higher')).toBe(betterQuartile(steady, 'higher'))
    // Slower slices are longer latencies and more CPU a delivery: the better quartile is the lower one there.
    expect(betterQuartile([9, 4, 12, 6, 4, 8, 7, 10, 4], 'lower')).toBe(4)
  })

  it('follows the spells once they slowed more than three quarters of the slices', () => {
    const third = [10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 20_000, 20_000, 20_000]
    expect(betterQuartile(third, 'higher')).toBe(20_000)
    const most = [10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 20_000, 20_000]
    expect(betterQuartile(most, 'higher')).toBe(10_000)
  })

  it('interpolates between the two slices around the quartile', () => {
    // Five values: the upper quartile sits exactly on the fourth, the lower on the second.
    expect(betterQuartile([1, 2, 3, 4, 5], 'higher')).toBe(4)
    expect(betterQuartile([1, 2, 3, 4, 5], 'lower')).toBe(2)
    // Four values: 0.75 × 3 = 2.25, a quarter of the way from the third to the fourth.
    expect(betterQuartile([40, 10, 30, 20], 'higher')).toBeCloseTo(32.5, 10)
    expect(betterQuartile([7], 'higher')).toBe(7)
    expect(betterQuartile([], 'higher')).toBeNaN()
  })
})

describe('ratioTo', () => {
  it('is one server’s steady reading over the other’s, for req/s, p99 and CPU', () => {
    const hand = row(20_000, 4, 50)
    const ringhook = row(19_000, 4.4, 45)
    expect(ratioTo(ringhook, hand, 'rps')).toBeCloseTo(0.95, 10)
    expect(ratioTo(ringhook, hand, 'p99')).toBeCloseTo(1.1, 10)
    expect(ratioTo(ringhook, hand, 'cpu')).toBeCloseTo(0.9, 10)
  })

  it('is NaN against a server with no reading', () => {
    expect(ratioTo(row(19_000), row(0), 'rps')).toBeNaN()
    expect(ratioTo(row(19_000), row(Number.NaN), 'rps')).toBeNaN()
  })
})
