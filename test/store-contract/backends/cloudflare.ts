// The Durable Object stores, as each contract takes them, in workerd (Miniflare): two isolates of one
// Worker bound to the same objects, as two instances of an app would be; each store method is sent to
// one of them and run there. Every store names its objects apart from every other store of the run.
// Each store waits up to 15 s for an object (PATIENT): on a loaded machine a call queued behind a
// batch of others in workerd may take longer than a store's default, and the contracts assert no timeout.
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { UserStore } from '@ringhook/users'
import { afterAll } from 'vitest'
import { dedupStore, limitStore, userStore } from '../../cloudflare/support/stores.js'
import { type Isolate, startWorkerd, type Workerd } from '../../cloudflare/support/workerd.js'
import type { DedupStoreKind } from '../dedup-store-contract.js'
import type { LimitStoreKind } from '../limit-store-contract.js'
import type { UserStoreKind } from '../user-state-store-contract.js'

const isolate = (i: number): Isolate => (i % 2 === 0 ? 'a' : 'b')
const PATIENT = { timeoutMs: 15_000 }

// One workerd for the kinds a test file opens, stopped when the file ends: starting it costs more
// than most of a contract's tests, and each store's objects are named apart anyway.
let shared: Promise<Workerd> | undefined
function sharedWorkerd(): Promise<Workerd> {
  shared ??= startWorkerd()
  return shared
}
/** A kind lets go of nothing of its own: its objects stay in workerd until the file's end. */
const close = async () => {}
afterAll(async () => {
  await shared?.then((workerd) => workerd.dispose())
})

export const durableDedup: DedupStoreKind = {
  name: 'durable object',
  open: async () => {
    const workerd = await sharedWorkerd()
    const options = { prefix: `dedup-${randomUUID()}:`, ...PATIENT }
    return {
      pair: () => [dedupStore(workerd, 'a', options), dedupStore(workerd, 'b', options)],
      close,
    }
  },
}

export const durableUsers: UserStoreKind = {
  name: 'durable object',
  open: async () => {
    const workerd = await sharedWorkerd()
    return {
      instances: async (count) => {
        const options = { prefix: `users-${randomUUID()}:`, ...PATIENT }
        return Array.from({ length: count }, (_, i) => userStore(workerd, isolate(i), options) as UserStore<unknown>)
      },
      close,
    }
  },
}

export const durableLimits: LimitStoreKind = {
  name: 'durable object',
  open: async () => {
    const workerd = await sharedWorkerd()
    return {
      instances: (count) => {
        const options = { name: `limits-${randomUUID()}`, ...PATIENT }
        return Array.from({ length: count }, (_, i) => limitStore(workerd, isolate(i), options))
      },
      // The object keeps this machine's clock: time passes only for real.
      pass: (ms) => sleep(ms),
      close,
    }
  },
}
