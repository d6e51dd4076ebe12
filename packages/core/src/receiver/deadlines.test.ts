import { describe, expect, it } from 'vitest'
import { type Deadline, Deadlines } from './deadlines.js'

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

  it('keeps its pending deadlines in order as they are cleared from anywhere in the list', () => {
    const deadlines = new Deadlines()
    const all = Array.from({ length: 5 }, () => deadlines.watch(60_000, () => {}))
    for (const index of [2, 0, 4]) deadlines.clear(all[index] as Deadline)
    deadlines.clear(all[2] as Deadline) // twice: nothing more
    expect(deadlines.size).toBe(2)
    for (const index of [1, 3]) deadlines.clear(all[index] as Deadline)
    expect(deadlines.size).toBe(0)
  })

  it('allocates nothing per deadline beyond the deadline itself', () => {
    // The list links the deadlines themselves (a Set costs 2-3 times as much per request): a
    // watched deadline holds its neighbour.
    const deadlines = new Deadlines()
    const first = deadlines.watch(60_000, () => {})
    const second = deadlines.watch(60_000, () => {})
    expect((first as unknown as { next: unknown }).next).toBe(second)
    deadlines.clear(first)
    deadlines.clear(second)
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
