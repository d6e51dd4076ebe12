// Bytes per user in the memory store: heap used after 100,000 users (random UUIDs, as the service's
// user_app_ids are) minus before, divided by their number, garbage collected both times.
// Run: node --expose-gc --import tsx packages/users/scripts/measure-memory.ts
import { randomUUID } from 'node:crypto'
import { memoryUserStore } from '../src/memory-store.js'
import { CAUSE } from '../src/states.js'

const USERS = 100_000
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')
gc()
const before = process.memoryUsage().heapUsed
const store = memoryUserStore()
const at = Date.now()
// Each id a string of its own, parsed from a payload as the receiver parses it: the store keeps it.
for (let i = 0; i < USERS; i++)
  await store.apply(
    (JSON.parse(`{"user_app_id":"${randomUUID()}"}`) as { user_app_id: string }).user_app_id,
    { at: at + i, coarse: false, cause: CAUSE.activated, uncertain: false },
    1000,
  )
gc()
const after = process.memoryUsage().heapUsed
console.log(`${((after - before) / USERS).toFixed(1)} bytes per user (${USERS} users, ids included)`)
console.log((await store.count()).active === USERS ? 'ok' : 'count wrong')
