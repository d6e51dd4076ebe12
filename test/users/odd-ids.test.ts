// Every store of users' states keeps any user_app_id a receiver accepts as a user of its own: a NUL
// (which Postgres text cannot hold), 2,700 hex characters (past a btree entry), lone surrogates
// (which UTF-8 cannot spell: a driver writes U+FFFD for each, and two users became one), and ids
// that look like the stores' own encodings. Each is stored, read back, listed and counted apart.
import { randomBytes } from 'node:crypto'
import { migrateUserStates, postgresUserStore } from '@ringhook/postgres'
import { redisUserStore } from '@ringhook/redis'
import { createUserStates, type LifecycleEvent, memoryUserStore, type UserStore } from '@ringhook/users'
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, dropTable, uniqueTable } from '../postgres/support/postgres.js'
import { connectRedis, dropPrefix, uniquePrefix } from '../redis/support/redis.js'

const ODD_IDS = [
  'u_plain',
  'u_\u0000nul',
  randomBytes(1350).toString('hex'), // 2,700 hex characters
  `${'é'.repeat(700)}`, // 700 units, 1,400 bytes: fits as it is
  `${'€'.repeat(1000)}`, // 3,000 bytes in UTF-8
  'u_\ud800', // two lone surrogates, both U+FFFD in UTF-8
  'u_\udbff',
  'u_\udc00\ud800', // reversed: two lone ones
  'u_\ud83d\ude00', // a well-formed pair: 😀
  'u_\ufffd', // what the lone ones became
  '\u0000"u_\\ud800"', // the Redis store's mark, spelled out
  `sha256:${'0'.repeat(64)}`, // the Postgres store's digest, spelled out
]

const prefix = uniquePrefix('users-odd-ids')
const table = uniqueTable('users_odd_ids')
let redis: Redis
let pool: pg.Pool

beforeAll(async () => {
  ;[redis, pool] = await Promise.all([connectRedis(), connectPostgres()])
  await migrateUserStates(pool, { table })
})
afterAll(async () => {
  if (redis) await dropPrefix(redis, prefix)
  redis?.disconnect()
  if (pool) await dropTable(pool, table)
  await pool?.end()
})

const stores: Array<[string, () => UserStore<unknown>]> = [
  ['memory', () => memoryUserStore()],
  ['Redis', () => redisUserStore({ client: redis, prefix })],
  ['Postgres', () => postgresUserStore({ pool, table }) as UserStore<unknown>],
]

describe.each(stores)('the %s store', (_, store) => {
  it('keeps every id the receiver accepts as a user of its own', async () => {
    const users = createUserStates({ store: store() })
    const event = (user_app_id: string, name: 'app.activated' | 'app.deactivated', second: number) =>
      ({
        event: name,
        user_app_id,
        app_id: 'app_odd',
        timestamp: `2026-11-28T10:00:0${second}Z`,
        data: {},
      }) as LifecycleEvent
    // Every other id is activated, the rest activated then deactivated: collapsed ids would mix them.
    for (const [i, id] of ODD_IDS.entries()) {
      await users.apply(event(id, 'app.activated', 1))
      if (i % 2 === 1) await users.apply(event(id, 'app.deactivated', 2))
    }
    for (const [i, id] of ODD_IDS.entries())
      expect(await users.get(id), JSON.stringify(id)).toMatchObject({
        userAppId: id,
        state: i % 2 === 1 ? 'inactive' : 'active',
      })
    const listed = async (state: 'active' | 'inactive') => {
      const ids: string[] = []
      for await (const user of users.inState(state)) ids.push(user.userAppId)
      return ids.sort()
    }
    expect(await listed('active')).toEqual(ODD_IDS.filter((_, i) => i % 2 === 0).sort())
    expect(await listed('inactive')).toEqual(ODD_IDS.filter((_, i) => i % 2 === 1).sort())
    expect(await users.count()).toEqual({ active: 6, passive: 0, inactive: 6 })
    users.close()
  })
})
