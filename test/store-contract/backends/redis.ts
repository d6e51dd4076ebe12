// The Redis stores, as each contract takes them, on the shared Redis under prefixes of their own.
// Each "instance" holds a connection of its own, as instances in separate processes would.
import { setTimeout as sleep } from 'node:timers/promises'
import {
  createRedisLimitStore,
  createRedisStore,
  readRedisCaptures,
  redisCaptureSink,
  redisUserStore,
} from '@ringhook/redis'
import type { UserStore } from '@ringhook/users'
import type { Redis } from 'ioredis'
import { connectRedis, dropPrefix, uniquePrefix } from '../../redis/support/redis.js'
import type { CaptureSinkKind } from '../capture-sink-contract.js'
import type { DedupStoreKind } from '../dedup-store-contract.js'
import type { LimitStoreKind } from '../limit-store-contract.js'
import type { UserStoreKind } from '../user-state-store-contract.js'

const CONNECTIONS = 3

/** Connections to the shared Redis, one per instance, and the prefixes used through them. */
async function openRedis(label: string) {
  const clients: Redis[] = await Promise.all(Array.from({ length: CONNECTIONS }, () => connectRedis()))
  const root = uniquePrefix(label)
  let n = 0
  return {
    clients,
    /** A prefix no other store of this run uses. */
    prefix: () => `${root}${n++}:`,
    client: (i: number) => clients[i % CONNECTIONS] as Redis,
    close: async () => {
      await dropPrefix(clients[0] as Redis, root)
      // The limit store puts its prefix inside a hash tag.
      await dropPrefix(clients[0] as Redis, `{${root}`)
      for (const client of clients) client.disconnect()
    },
  }
}

export const redisDedup: DedupStoreKind = {
  name: 'redis',
  open: async () => {
    const redis = await openRedis('contract-dedup')
    const prefix = redis.prefix()
    return {
      pair: () => [
        createRedisStore({ client: redis.client(0), prefix }),
        createRedisStore({ client: redis.client(1), prefix }),
      ],
      close: redis.close,
    }
  },
}

export const redisUsers: UserStoreKind = {
  name: 'redis',
  open: async () => {
    const redis = await openRedis('contract-users')
    return {
      instances: async (count) => {
        const prefix = redis.prefix()
        return Array.from(
          { length: count },
          (_, i) => redisUserStore({ client: redis.client(i), prefix }) as UserStore<unknown>,
        )
      },
      close: redis.close,
    }
  },
}

export const redisLimits: LimitStoreKind = {
  name: 'redis',
  open: async () => {
    const redis = await openRedis('contract-limits')
    return {
      instances: (count) => {
        const prefix = redis.prefix()
        return Array.from({ length: count }, (_, i) => createRedisLimitStore({ client: redis.client(i), prefix }))
      },
      // The store keeps Redis's time (TIME): it passes only for real.
      pass: (ms) => sleep(ms),
      close: redis.close,
    }
  },
}

export const redisCaptures: CaptureSinkKind = {
  name: 'redis',
  open: async () => {
    const redis = await openRedis('contract-captures')
    return {
      fresh: async () => {
        const key = `${redis.prefix()}stream`
        return {
          sink: redisCaptureSink({ client: redis.client(0), key }),
          read: () => readRedisCaptures({ client: redis.client(1), stream: key }),
        }
      },
      close: redis.close,
    }
  },
}
