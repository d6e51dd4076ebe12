/**
 * Child process (run with --expose-gc): pushes `count` distinct event ids through the in-memory
 * dedup store with its default budget, the way the receiver does (claim, then complete with the
 * reply), 110 a second on a clock of its own (the default budget holds a 15-minute window at that
 * rate), and reports memory after a full GC at checkpoints. Sends one GrowthReport over IPC.
 */
import { createMemoryStore, type MemoryStore } from '@ringhook/core/store'

export interface Checkpoint {
  ids: number
  rssMb: number
  heapUsedMb: number
  storeSize: number
  /** What the store charges to its budget. */
  storeMb: number
}

export interface GrowthReport {
  count: number
  checkpoints: Checkpoint[]
  idsPerSec: number
}

const gc = (globalThis as { gc?: () => void }).gc
const mb = (bytes: number): number => bytes / 1024 / 1024
const REPLY = { status: 200, body: '{"ok":true}' }
const IN_FLIGHT_TTL_MS = 15_000
const COMPLETED_TTL_MS = 15 * 60_000
const IDS_PER_SECOND = 110

function checkpoint(ids: number, store: MemoryStore): Checkpoint {
  gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  return { ids, rssMb: mb(rss), heapUsedMb: mb(heapUsed), storeSize: store.size, storeMb: mb(store.bytes) }
}

async function main(count: number): Promise<GrowthReport> {
  let now = 0
  const store = createMemoryStore({ now: () => now })
  const marks = new Set([10_000, 100_000, Math.floor(count / 2), count].filter((n) => n <= count))
  const checkpoints = [checkpoint(0, store)]
  const started = performance.now()
  let paused = 0
  for (let i = 1; i <= count; i++) {
    if (i % IDS_PER_SECOND === 0) now += 1000
    const key = `app_8kq2m4x7:event:evt_${i.toString(36)}`
    const claim = await store.claim(key, IN_FLIGHT_TTL_MS)
    if (claim.state !== 'claimed') throw new Error(`id ${i} was not new to the store`)
    await store.complete(key, claim.token, REPLY, COMPLETED_TTL_MS)
    if (marks.has(i)) {
      const before = performance.now()
      checkpoints.push(checkpoint(i, store))
      paused += performance.now() - before
    }
  }
  const seconds = (performance.now() - started - paused) / 1000
  return { count, checkpoints, idsPerSec: count / seconds }
}

const report = await main(Number(process.argv[2] ?? 1_000_000))
process.send?.(report, () => process.exit(0))
