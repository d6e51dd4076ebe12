// The system clock sleeps a wait longer than a Node timer holds (2^31-1 ms) in parts: never a timer
// that overflows, which Node fires after 1 ms (a retry or a limiter's wait would then spin).
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { systemClock } from './clock.js'

describe('systemClock.sleep', () => {
  it('waits past 2^31-1 ms without an overflowing timer, and stops when aborted', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => void warnings.push(warning.name)
    process.on('warning', onWarning)
    const abort = new AbortController()
    let settled = 'pending'
    const long = systemClock.sleep(2 ** 31 + 5_000, abort.signal).then(
      () => {
        settled = 'resolved'
      },
      () => {
        settled = 'aborted'
      },
    )
    try {
      await sleep(100)
      expect(settled).toBe('pending')
      abort.abort(new Error('enough'))
      await long
      expect(settled).toBe('aborted')
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings).toEqual([])
  })

  it('still resolves a short wait on time', async () => {
    const started = performance.now()
    await systemClock.sleep(20)
    expect(performance.now() - started).toBeGreaterThanOrEqual(19)
  })
})
