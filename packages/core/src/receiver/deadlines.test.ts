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
    expect(elapsed).toBeLessThan(80 * 1.25 + 50) // + scheduling slack on a loaded machine
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
