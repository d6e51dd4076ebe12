// `@ringhook/users/redis` and `/postgres` are deprecated copies of the stores that moved to
// `@ringhook/redis` and `@ringhook/postgres` (removed in 0.3.0). An app that moves its import keeps its
// data: each copy writes what the moved store reads, and the other way round.
import { migrateUserStates, postgresUserStore } from '@ringhook/postgres'
import { redisUserStore } from '@ringhook/redis'
import type { Stamp, UserStore } from '@ringhook/users'
import { postgresUserStore as oldPostgresUserStore } from '@ringhook/users/postgres'
import { redisUserStore as oldRedisUserStore } from '@ringhook/users/redis'
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, dropTable, uniqueTable } from '../postgres/support/postgres.js'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'

// An installed user (cause 0), then an activation (cause 1) a second later.
const installed: Stamp = { at: 1_700_000_000_000, coarse: false, cause: 0, uncertain: false }
const activated: Stamp = { at: 1_700_000_001_000, coarse: false, cause: 1, uncertain: false }
// An id each store must write escaped (a lone surrogate) or digested (a NUL), as well as a plain one.
const ids = ['user-1', 'odd-\ud800-id', 'nul-\u0000-id']

/** Each store applies the other's stamps and reads them back, counts and pages included. */
async function interoperate(oldStore: UserStore<unknown>, newStore: UserStore<unknown>) {
  for (const id of ids) {
    expect((await oldStore.apply(id, installed, 1000)).verdict).toBe('applied')
    expect(await newStore.get(id)).toEqual(installed)
    expect((await newStore.apply(id, activated, 1000)).before).toEqual(installed)
    expect(await oldStore.get(id)).toEqual(activated)
  }
  expect(await oldStore.count()).toEqual(await newStore.count())
  const seen: string[] = []
  for await (const page of newStore.pages('active', 10)) seen.push(...page.map(([id]) => id))
  expect(seen.sort()).toEqual([...ids].sort())
}

describe('the deprecated stores of @ringhook/users', () => {
  let redis: Redis
  let pool: pg.Pool
  const prefix = uniquePrefix('users-deprecated')
  const table = uniqueTable('users_deprecated')

  beforeAll(async () => {
    redis = await connectRedis()
    pool = await connectPostgres()
  })
  afterAll(async () => {
    if (redis) await dropPrefix(redis, prefix)
    redis?.disconnect()
    if (pool) await dropTable(pool, table)
    await pool?.end()
  })

  it('@ringhook/users/redis shares its keys with @ringhook/redis', async () => {
    await interoperate(
      oldRedisUserStore({ client: redis, prefix }) as UserStore<unknown>,
      redisUserStore({ client: redis, prefix }) as UserStore<unknown>,
    )
  })

  it('@ringhook/users/postgres shares its table with @ringhook/postgres', async () => {
    await migrateUserStates(pool, { table })
    await interoperate(
      oldPostgresUserStore({ pool, table }) as UserStore<unknown>,
      postgresUserStore({ pool, table }) as UserStore<unknown>,
    )
  })
})
