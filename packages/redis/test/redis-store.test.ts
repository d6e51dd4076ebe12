import { randomUUID } from 'node:crypto'
import { RinghookConfigError } from '@ringhook/core'
import type { ClaimResult } from '@ringhook/core/store'
import { createRedisStore, DEFAULT_PREFIX, type RedisScriptClient, RedisStoreError } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../../../test/redis/support/poll.js'
import { connectRedis, dropPrefix, uniquePrefix } from '../../../test/redis/support/redis.js'
import { type RedisServer, startRedisServer } from '../../../test/redis/support/redis-server.js'

const MINUTE = 60_000
const reply = { status: 200, body: '{"success":true,"vibe":{"sequence":[{"type":"tap"}]}}' }

function token(claim: ClaimResult): string {
  if (claim.state !== 'claimed') throw new Error(`expected a claim, got ${claim.state}`)
  return claim.token
}

describe('createRedisStore on the shared Redis', () => {
  const prefix = uniquePrefix('store')
  let redis: Redis

  beforeAll(async () => {
    redis = await connectRedis()
  })
  afterAll(async () => {
    await dropPrefix(redis, prefix)
    redis.disconnect()
  })

  it('keeps each delivery in one hash under the prefix, with the ttl it was given', async () => {
    const store = createRedisStore({ client: redis, prefix })
    const key = `app_demo:delivery:${randomUUID()}`
    const claimed = token(await store.claim(key, 15_000))
    expect(await redis.hgetall(prefix + key)).toEqual({ token: claimed })
    expect(await redis.pttl(prefix + key)).toBeGreaterThan(14_000)
    await store.complete(key, claimed, reply, 15 * MINUTE)
    expect(await redis.hgetall(prefix + key)).toEqual({ token: claimed, status: '200', body: reply.body })
    expect(await redis.pttl(prefix + key)).toBeGreaterThan(14 * MINUTE)
    await store.release(key, claimed)
    expect(await redis.exists(prefix + key)).toBe(0)
  })

  it("uses 'ringhook:dedup:' when no prefix is given", async () => {
    const store = createRedisStore({ client: redis })
    const key = `test:${randomUUID()}`
    const claimed = token(await store.claim(key, MINUTE))
    expect(await redis.hget(DEFAULT_PREFIX + key, 'token')).toBe(claimed)
    await store.release(key, claimed)
  })

  it('fails a claim on a key that holds something else, naming the operation', async () => {
    const store = createRedisStore({ client: redis, prefix })
    const key = randomUUID()
    await redis.set(prefix + key, 'not a dedup entry')
    const failure = store.claim(key, MINUTE)
    await expect(failure).rejects.toBeInstanceOf(RedisStoreError)
    await expect(failure).rejects.toThrow(/claim: WRONGTYPE/)
  })

  it('rejects a missing client or a bad timeout with a config error', () => {
    expect(() => createRedisStore({} as { client: RedisScriptClient })).toThrow(RinghookConfigError)
    expect(() => createRedisStore({ client: redis, commandTimeoutMs: 0 })).toThrow(/commandTimeoutMs/)
  })
})

describe('createRedisStore when its Redis misbehaves', () => {
  let server: RedisServer
  let admin: Redis
  let redis: Redis

  beforeAll(async () => {
    server = await startRedisServer()
    admin = await connectRedis(server.port)
    redis = await connectRedis(server.port)
  })
  afterAll(async () => {
    admin.disconnect()
    redis.disconnect()
    await server.close()
  })

  const claimWhenBack = (store: ReturnType<typeof createRedisStore>, key: string) =>
    poll(`a claim of ${key}`, async () => {
      const claim = await store.claim(key, MINUTE).catch(() => undefined)
      return claim?.state === 'claimed' ? claim : undefined
    })

  it('sends the scripts again after Redis forgot them', async () => {
    const store = createRedisStore({ client: redis })
    const key = randomUUID()
    token(await store.claim(key, MINUTE))
    await admin.script('FLUSH')
    expect(await store.claim(key, MINUTE)).toEqual({ state: 'in_flight' })
  })

  it('gives up on a slow Redis after commandTimeoutMs, and undoes the claim that lands late', async () => {
    const store = createRedisStore({ client: redis, commandTimeoutMs: 100 })
    const key = randomUUID()
    await admin.client('PAUSE', 600, 'ALL')
    await expect(store.claim(key, MINUTE)).rejects.toThrow(/claim: no answer within 100 ms/)
    // The paused claim runs when the pause ends; the store releases it, so the key is free
    // again long before its one-minute ttl.
    await claimWhenBack(store, key)
  })

  it('fails while Redis is down and works again once it is back, on the same client', async () => {
    const store = createRedisStore({ client: redis, commandTimeoutMs: 200 })
    const done = randomUUID()
    await store.complete(done, token(await store.claim(done, MINUTE)), reply, MINUTE)
    await server.stop()
    await expect(store.claim(randomUUID(), MINUTE)).rejects.toBeInstanceOf(RedisStoreError)
    await expect(store.complete(done, randomUUID(), reply, MINUTE)).rejects.toBeInstanceOf(RedisStoreError)
    await server.start()
    await claimWhenBack(store, randomUUID())
    // What Redis acknowledged before the crash is still there (it syncs its append-only file).
    expect(await store.claim(done, MINUTE)).toEqual({ state: 'completed', reply })
  })
})
