// The short soak for CI: the same run as `test/soak/soak.ts`, 5 s per adapter and at least 1,000
// requests (RINGHOOK_SOAK_SECONDS to change the time). Every criterion is asserted: no unexpected 5xx,
// every answer what the traffic deserved, every unique delivery handled exactly once, no heap growth
// per request after GC beyond the dedup store's, a clean SIGTERM.
import { describe, expect, it } from 'vitest'
import { availableAdapters, runSoak } from './run.js'

const SECONDS = Number(process.env.RINGHOOK_SOAK_SECONDS ?? 5)

describe('soak (short)', () => {
  it.each(availableAdapters())(
    '%s: loses nothing, runs nothing twice, stays flat, stops cleanly',
    async (adapter) => {
      const result = await runSoak({ adapter, seconds: SECONDS, concurrency: 16 })
      expect(result.failures).toEqual([])
      expect(result.load.requests).toBeGreaterThanOrEqual(1000)
      expect(result.load.unexpected5xx).toBe(0)
      expect(result.load.wrongAnswers).toEqual([])
      expect(result.violations).toEqual([])
      expect(result.exactlyOnce).toBe(result.unique)
      // The mix really happened: forged/stale deliveries refused, duplicates and retries sent.
      expect(result.load.statuses[401]).toBeGreaterThan(0)
      expect(result.load.duplicatesSent).toBeGreaterThan(0)
      expect(result.load.retries).toBeGreaterThan(0)
      expect(result.shutdown).toEqual({ exitCode: 0, drained: true })
    },
    // 1,000 requests take 5-10 s on two busy cores, and up to a minute when the suite runs beside it.
    SECONDS * 1000 * 2 + 90_000,
  )
})
