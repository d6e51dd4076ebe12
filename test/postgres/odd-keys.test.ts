// Keys Postgres could not index as they are: a NUL (text holds none) or over ~2.7 KB (a btree
// entry's limit). A custom keyFn or a job's key may be either; each is claimed and recognised again.
import { randomUUID } from 'node:crypto'
import type { DedupStore } from '@ringhook/core/store'
import { createPostgresInbox, createPostgresStore, runOnce } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, dropTable, freshTable } from './support/postgres.js'

let pool: pg.Pool
let table: string

beforeAll(async () => {
  pool = await connectPostgres()
  table = await freshTable(pool, 'odd_keys')
})
afterAll(async () => {
  await dropTable(pool, table)
  await pool.end()
})

/** Random characters: Postgres cannot compress them under its index limit. */
const random = (n: number) => Array.from({ length: n }, () => Math.random().toString(36).charAt(2)).join('')

const oddKeys = () => [
  ['a NUL', `evt\u0000${randomUUID()}`],
  ['3,000 characters', random(3000)],
]

describe.each([
  ['createPostgresStore', () => createPostgresStore({ pool, table })],
  ['createPostgresInbox', () => createPostgresInbox({ pool, table })],
] as const)('%s', (_, make) => {
  it.each(oddKeys())('claims a key with %s, and answers its copy with the stored reply', async (__, key) => {
    const store: DedupStore = make()
    const first = await store.claim(key, 60_000)
    if (first.state !== 'claimed') throw new Error(`not claimed: ${first.state}`)
    await store.complete(key, first.token, { status: 200, body: '{"ok":true}' }, 60_000)
    expect(await store.claim(key, 60_000)).toMatchObject({
      state: 'completed',
      reply: { status: 200, body: '{"ok":true}' },
    })
    // Another key is another delivery, however alike.
    const other = await store.claim(`${key}x`, 60_000)
    expect(other.state).toBe('claimed')
    if (other.state === 'claimed') await store.release(`${key}x`, other.token)
  })
})

describe('runOnce', () => {
  it.each(oddKeys())('runs the work of a key with %s once', async (__, key) => {
    const work = async () => 'done'
    expect(await runOnce(pool, key, work, { table })).toEqual({ applied: true, value: 'done' })
    expect(await runOnce(pool, key, work, { table })).toEqual({ applied: false })
  })
})
