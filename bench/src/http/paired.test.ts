// The HTTP section's ratios: what the bench's targets for every adapter are read from.
import { describe, expect, it } from 'vitest'
import type { LoadResult } from './load.js'
import { pairedRatio } from './paired.js'
import type { HttpRow } from './run.js'

const run = (rps: number, p99Ms = 5): LoadResult => ({
  rps,
  p50Ms: 1,
  p99Ms,
  errors: 0,
  signedLive: 0,
  loadCpuShare: 0.3,
})

function row(app: string, rps: number[], cpuUs: number[] = rps.map(() => 40)): HttpRow {
  return {
    framework: 'test',
    app,
    baseline: 'test:hand',
    runs: rps.map((value) => run(value)),
    cpuUs,
    rps: { median: 0, min: 0, max: 0 },
    p50Ms: 1,
    p99Ms: 5,
    errors: 0,
    peakRssMb: 0,
    cpuUsPerRequest: 0,
    handled: 0,
  }
}

describe('pairedRatio', () => {
  it('compares runs of the same round, so a slow spell over a round leaves its ratio', () => {
    // Rounds 3 and 4 ran while the machine was busy: both servers slowed to half or less.
    const hand = row('test:hand', [20_000, 22_000, 10_000, 8_000, 21_000])
    const ringhook = row('test:ringhook', [18_000, 19_800, 9_000, 7_200, 18_900])
    expect(pairedRatio(ringhook, hand, 'rps')).toBeCloseTo(0.9, 10)
  })

  it("is not the ratio of the medians, which a spell over some of one server's runs moves", () => {
    // The contender is 0.9x whenever both ran alike; a spell caught the route's runs in rounds 2
    // and 3 and the contender's in round 4. Median against median would read 21,600 / 15,000 = 1.44x.
    const hand = row('test:hand', [24_000, 15_000, 15_000, 15_000, 24_000])
    const ringhook = row('test:ringhook', [21_600, 21_600, 21_600, 13_500, 21_600])
    expect(pairedRatio(ringhook, hand, 'rps')).toBeCloseTo(0.9, 10)
  })

  it('takes the median of the rounds, so one disturbed round does not move it', () => {
    const hand = row('test:hand', [20_000, 20_000, 20_000, 20_000, 20_000])
    const ringhook = row('test:ringhook', [19_000, 19_000, 5_000, 19_000, 40_000])
    expect(pairedRatio(ringhook, hand, 'rps')).toBeCloseTo(0.95, 10)
  })

  it('reads p99 and server CPU the same way', () => {
    const hand = row('test:hand', [1, 1, 1], [40, 50, 40])
    const ringhook = row('test:ringhook', [1, 1, 1], [44, 55, 60])
    hand.runs = [run(1, 4), run(1, 8), run(1, 4)]
    ringhook.runs = [run(1, 4.4), run(1, 8.8), run(1, 8)]
    expect(pairedRatio(ringhook, hand, 'p99')).toBeCloseTo(1.1, 10)
    expect(pairedRatio(ringhook, hand, 'cpu')).toBeCloseTo(1.1, 10)
  })

  it('uses the rounds both servers ran, and is NaN when there are none', () => {
    const hand = row('test:hand', [20_000, 20_000])
    expect(pairedRatio(row('test:ringhook', [19_000, 19_000, 1_000]), hand, 'rps')).toBeCloseTo(0.95, 10)
    expect(pairedRatio(row('test:ringhook', []), hand, 'rps')).toBeNaN()
  })
})
