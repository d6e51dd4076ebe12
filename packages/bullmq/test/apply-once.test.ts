import { applyOnce } from '@ringhook/bullmq'
import { RinghookConfigError } from '@ringhook/core'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, dropPrefix, uniquePrefix } from '../../../test/redis/support/redis.js'

const prefix = uniquePrefix('apply-once')
let redis: Redis
const clients: Redis[] = []

beforeAll(async () => {
  redis = await connectRedis()
  for (let i = 0; i < 4; i++) clients.push(await connectRedis())
})
afterAll(async () => {
  await dropPrefix(redis, prefix)
  for (const client of [redis, ...clients]) client.disconnect()
})

describe('applyOnce', () => {
  it('applies the writes once however many runs race for the same marker', async () => {
    const marker = `${prefix}done:job-1`
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        applyOnce(clients[i % clients.length] as Redis, marker, [
          ['RPUSH', `${prefix}list`, 'effect'],
          ['HINCRBY', `${prefix}hash`, 'count', 1],
        ]),
      ),
    )
    expect(runs.filter(Boolean)).toHaveLength(1)
    expect(await redis.lrange(`${prefix}list`, 0, -1)).toEqual(['effect'])
    expect(await redis.hget(`${prefix}hash`, 'count')).toBe('1')
    const ttl = await redis.pttl(marker)
    expect(ttl).toBeGreaterThan(6 * 24 * 3600 * 1000)
  })

  it('leaves no marker when a write fails, so the next run applies it', async () => {
    const marker = `${prefix}done:job-2`
    await redis.set(`${prefix}string`, 'not a list')
    await expect(applyOnce(redis, marker, [['RPUSH', `${prefix}string`, 'x']])).rejects.toThrow(/WRONGTYPE/)
    expect(await redis.exists(marker)).toBe(0)
    await redis.del(`${prefix}string`)
    expect(await applyOnce(redis, marker, [['RPUSH', `${prefix}string`, 'x']], { ttlMs: 5_000 })).toBe(true)
    expect(await redis.pttl(marker)).toBeLessThanOrEqual(5_000)
  })

  it('refuses an empty marker or a bad ttl', async () => {
    await expect(applyOnce(redis, '', [])).rejects.toThrow(RinghookConfigError)
    await expect(applyOnce(redis, 'm', [], { ttlMs: 0 })).rejects.toThrow(/ttlMs/)
  })
})
