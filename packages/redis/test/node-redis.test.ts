// node-redis, the other client, through fromNodeRedis: the same store contract as the in-memory
// store and ioredis, and recovery from a Redis restart with the options the README gives.
import { randomUUID } from 'node:crypto'
import { createRedisStore, fromNodeRedis, RedisStoreError } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../../../test/redis/support/poll.js'
import { connectRedis, dropPrefix, SHARED_REDIS_PORT, uniquePrefix } from '../../../test/redis/support/redis.js'
import { type RedisServer, startRedisServer } from '../../../test/redis/support/redis-server.js'
import { dedupStoreContract } from '../../../test/store-contract/dedup-store-contract.js'

const newClient = (port: number) => createClient({ url: `redis://127.0.0.1:${port}`, disableOfflineQueue: true })
type NodeRedis = ReturnType<typeof newClient>

async function connectNodeRedis(port: number): Promise<NodeRedis> {
  const client = newClient(port)
  // It reconnects by itself; failures surface through commands.
  client.on('error', () => {})
  await client.connect()
  return client
}

describe('node-redis through fromNodeRedis', () => {
  const prefix = uniquePrefix('node-redis')
  const clients: NodeRedis[] = []
  let admin: Redis

  beforeAll(async () => {
    admin = await connectRedis()
    clients.push(await connectNodeRedis(SHARED_REDIS_PORT), await connectNodeRedis(SHARED_REDIS_PORT))
  })
  afterAll(async () => {
    await dropPrefix(admin, prefix)
    admin.disconnect()
    for (const client of clients) client.destroy()
  })

  describe('the redis (node-redis) store', () =>
    dedupStoreContract({
      name: 'redis (node-redis)',
      open: async () => ({
        pair: () => {
          const [a, b] = clients
          if (!a || !b) throw new Error('node-redis clients are not connected')
          return [
            createRedisStore({ client: fromNodeRedis(a), prefix }),
            createRedisStore({ client: fromNodeRedis(b), prefix }),
          ]
        },
        close: async () => {},
      }),
    }))
})

describe('node-redis when Redis restarts', () => {
  let server: RedisServer
  let client: NodeRedis

  beforeAll(async () => {
    server = await startRedisServer()
    client = await connectNodeRedis(server.port)
  })
  afterAll(async () => {
    client?.destroy()
    await server?.close()
  })

  it('fails fast while Redis is down and recovers by itself, scripts included', async () => {
    const store = createRedisStore({ client: fromNodeRedis(client), commandTimeoutMs: 300 })
    const key = randomUUID()
    const first = await store.claim(key, 60_000)
    expect(first.state).toBe('claimed')
    await server.stop()
    await expect(store.claim(randomUUID(), 60_000)).rejects.toBeInstanceOf(RedisStoreError)
    await server.start()
    const fresh = await poll('node-redis to reconnect', () =>
      store.claim(randomUUID(), 60_000).then(
        (claim) => claim,
        () => undefined,
      ),
    )
    expect(fresh.state).toBe('claimed')
    // The restarted server kept the claim (append-only file) but not the scripts: they were sent again.
    expect(await store.claim(key, 60_000)).toEqual({ state: 'in_flight' })
  })
})
