// The in-memory stores, as each contract takes them. One process: every "instance" holds the same store.
import { createMemoryLimitStore } from '@ringhook/client'
import { createMemoryStore } from '@ringhook/core/store'
import { memoryUserStore, type UserStore } from '@ringhook/users'
import type { DedupStoreKind } from '../dedup-store-contract.js'
import type { LimitStoreKind } from '../limit-store-contract.js'
import type { UserStoreKind } from '../user-state-store-contract.js'
import { manualClock } from './manual-clock.js'

export const memoryDedup: DedupStoreKind = {
  name: 'memory',
  open: async () => ({
    pair: () => {
      const store = createMemoryStore()
      return [store, store]
    },
    close: async () => {},
  }),
}

export const memoryUsers: UserStoreKind = {
  name: 'memory',
  open: async () => ({
    instances: async (count) => {
      const store = memoryUserStore() as UserStore<unknown>
      return Array.from({ length: count }, () => store)
    },
    close: async () => {},
  }),
}

export const memoryLimits: LimitStoreKind = {
  name: 'memory',
  open: async () => {
    const clock = manualClock()
    return {
      instances: (count) => {
        const store = createMemoryLimitStore({ clock })
        return Array.from({ length: count }, () => store)
      },
      pass: async (ms) => clock.advance(ms),
      close: async () => {},
    }
  },
}
