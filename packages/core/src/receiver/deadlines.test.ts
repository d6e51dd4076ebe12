import { describe, expect, it } from 'vitest'
import { Deadlines } from './deadlines.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('Deadlines', () => {
  it('expires a deadline after its timeout, within a quarter of it', async () => {
    const deadlines = new Deadlines()
    const started = Date.now()
    const expired = new Promise<number>((resolve) => deadlines.watch(80, () => resolve(Date.now() - started)))
    const elapsed = await expired
    expect(elapsed).toBeGreaterThanOrEqual(80)
    // 1.25x plus a sweep is ~120 ms; the bound leaves room for a machine busy with the whole suite
    // while still failing a deadline left to some far later timer.
    expect(elapsed).toBeLessThan(500)
    expect(deadlines.size).toBe(0)
  })

  it('never expires a cleared deadline, and stops its timer when nothing is pending', async () => {
    const deadlines = new Deadlines()
    let expired = 0
    const deadline = deadlines.watch(20, () => expired++)
    deadlines.clear(deadline)
    await sleep(60)
    expect(expired).toBe(0)
    expect(deadlines.size).toBe(0)
  })

  it('serves short and long timeouts side by side', async () => {
    const deadlines = new Deadlines()
    const order: string[] = []
    deadlines.watch(1_000, () => order.push('long'))
    const short = new Promise<void>((resolve) =>
      deadlines.watch(20, () => {
        order.push('short')
        resolve()
      }),
    )
    await short
    expect(order).toEqual(['short'])
    expect(deadlines.size).toBe(1)
  })
})
