import { median } from '../stats.js'

/** One operation: returns a value (or a promise of one) and throws when the work was not done right. */
export type Operation = () => unknown

export interface Contender {
  name: string
  /** Prepares fixtures and returns the operation; called once, before any timing. */
  setup(): Promise<Operation>
}

export interface TimingOptions {
  warmupMs: number
  rounds: number
  roundMs: number
}

export interface Measured {
  name: string
  /** Median over the rounds. */
  opsPerSec: number
  minOpsPerSec: number
  maxOpsPerSec: number
}

const nowMs = (): number => performance.now()

/** Runs `count` operations back to back, awaiting each one that returns a promise. */
async function runBatch(op: Operation, count: number): Promise<number> {
  const start = nowMs()
  for (let i = 0; i < count; i++) {
    const result = op()
    if (result instanceof Promise) await result
  }
  return nowMs() - start
}

/** Warms an operation up for `ms` and returns its rate, used to size the timed rounds. */
async function warmUp(op: Operation, ms: number): Promise<number> {
  let done = 0
  let elapsed = 0
  let batch = 16
  while (elapsed < ms) {
    elapsed += await runBatch(op, batch)
    done += batch
    batch = Math.min(batch * 2, 4096)
  }
  return (done / elapsed) * 1000
}

/**
 * Times every contender in the same process. Rounds are interleaved (round 1 of each, then round 2
 * of each, starting at a different contender every round) so that a noisy neighbour on a shared
 * machine slows every contender alike instead of whichever happened to be running.
 */
export async function measureAll(contenders: readonly Contender[], options: TimingOptions): Promise<Measured[]> {
  const ops: Operation[] = []
  for (const contender of contenders) ops.push(await contender.setup())
  const batchSizes: number[] = []
  for (const op of ops)
    batchSizes.push(Math.max(1, Math.round(((await warmUp(op, options.warmupMs)) * options.roundMs) / 1000)))
  const samples: number[][] = contenders.map(() => [])
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < ops.length; k++) {
      const i = (k + round) % ops.length
      const count = batchSizes[i] as number
      const elapsed = await runBatch(ops[i] as Operation, count)
      samples[i]?.push((count / elapsed) * 1000)
    }
  }
  return contenders.map((contender, i) => {
    const rates = samples[i] as number[]
    return {
      name: contender.name,
      opsPerSec: median(rates),
      minOpsPerSec: Math.min(...rates),
      maxOpsPerSec: Math.max(...rates),
    }
  })
}
