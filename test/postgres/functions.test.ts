// runOnce (for queue workers), the sweep of expired rows, migrate and the checks of the options.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { RinghookConfigError } from '@ringhook/core'
import { createPostgresInbox, createPostgresStore, migrate, runOnce, schemaSql, sweepExpired } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, dropTable, freshTable, uniqueTable } from './support/postgres.js'

let pool: pg.Pool
let table: string
const effects = uniqueTable('once_fx')

beforeAll(async () => {
  pool = await connectPostgres({ max: 30 })
  table = await freshTable(pool, 'functions')
  await pool.query(`CREATE TABLE ${effects} (job text NOT NULL)`)
})

afterAll(async () => {
  await dropTable(pool, table)
  await dropTable(pool, effects)
  await pool.end()
})

const rowsOf = async (sql: string, values: unknown[] = []) => (await pool.query(sql, values)).rows

describe('runOnce', () => {
  it('commits the work of 20 concurrent runs of one key once', async () => {
    const key = `rh-${randomUUID()}`
    const runs = await Promise.all(
      Array.from({ length: 20 }, () =>
        runOnce(
          pool,
          key,
          async (tx) => {
            await tx.query(`INSERT INTO ${effects} (job) VALUES ($1)`, [key])
            return 'done'
          },
          { table },
        ),
      ),
    )
    expect(runs.filter((run) => run.applied)).toEqual([{ applied: true, value: 'done' }])
    expect(await rowsOf(`SELECT job FROM ${effects} WHERE job = $1`, [key])).toHaveLength(1)
  })

  it('rolls back a run that throws, so the next run applies', async () => {
    const key = `rh-${randomUUID()}`
    const write = (tx: pg.PoolClient) => tx.query(`INSERT INTO ${effects} (job) VALUES ($1)`, [key])
    await expect(
      runOnce(
        pool,
        key,
        async (tx) => {
          await write(tx)
          throw new Error('the worker failed after its write')
        },
        { table },
      ),
    ).rejects.toThrow('after its write')
    expect(await rowsOf(`SELECT job FROM ${effects} WHERE job = $1`, [key])).toHaveLength(0)
    expect((await runOnce(pool, key, write, { table })).applied).toBe(true)
    expect((await runOnce(pool, key, write, { table })).applied).toBe(false)
    expect(await rowsOf(`SELECT job FROM ${effects} WHERE job = $1`, [key])).toHaveLength(1)
  })
})

/** Runs a job with runOnce in a process of its own that dies with SIGKILL at `killAt`; resolves with its signal. */
async function killedJob(key: string, killAt: 'write' | 'commit'): Promise<NodeJS.Signals | null> {
  const child = fork(fileURLToPath(new URL('./support/job-instance.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      RINGHOOK_PG_TABLE: table,
      RINGHOOK_PG_EFFECTS: effects,
      RINGHOOK_JOB_KEY: key,
      RINGHOOK_KILL_AT: killAt,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const [, signal] = await once(child, 'exit')
  return signal as NodeJS.Signals | null
}

describe('runOnce in a worker killed mid-job', () => {
  it.each(['write', 'commit'] as const)(
    'after its %s: the job run again applies its writes once in all',
    async (point) => {
      const key = `rh-${randomUUID()}`
      expect(await killedJob(key, point)).toBe('SIGKILL')
      const write = (tx: pg.PoolClient) => tx.query(`INSERT INTO ${effects} (job) VALUES ($1)`, [key])
      // Died before its commit: nothing kept, and the next run applies. After it: the next run sees it done.
      expect(await rowsOf(`SELECT job FROM ${effects} WHERE job = $1`, [key])).toHaveLength(point === 'commit' ? 1 : 0)
      expect((await runOnce(pool, key, write, { table })).applied).toBe(point === 'write')
      expect((await runOnce(pool, key, write, { table })).applied).toBe(false)
      expect(await rowsOf(`SELECT job FROM ${effects} WHERE job = $1`, [key])).toHaveLength(1)
    },
  )
})

describe('expired rows', () => {
  it('are deleted by the store every sweepEvery claims, without a cron', async () => {
    const own = await freshTable(pool, 'sweep')
    try {
      await pool.query(
        `INSERT INTO ${own} (key, token, status, body, expires_at) SELECT 'old-' || i, 't', 200, '', now() - interval '1 minute' FROM generate_series(1, 50) i`,
      )
      const store = createPostgresStore({ pool, table: own, sweepEvery: 3, sweepLimit: 20 })
      const oldLeft = async () =>
        ((await rowsOf(`SELECT count(*)::int AS n FROM ${own} WHERE key LIKE 'old-%'`))[0] as { n: number }).n
      // Every third claim starts a sweep of at most 20 rows in the background, one at a time (a claim
      // that comes while one runs starts none), so it takes three sweeps and at least nine claims.
      let claims = 0
      while (claims < 60 && (await oldLeft()) > 0) {
        await store.claim(randomUUID(), 60_000)
        claims++
      }
      expect(await oldLeft()).toBe(0)
      expect(claims).toBeGreaterThanOrEqual(9)
      expect(await rowsOf(`SELECT key FROM ${own} WHERE key NOT LIKE 'old-%'`)).toHaveLength(claims)
      expect(await sweepExpired(pool, { table: own })).toBe(0)
    } finally {
      await dropTable(pool, own)
    }
  })

  it('are taken over by a claim, before any sweep', async () => {
    const store = createPostgresStore({ pool, table, sweepEvery: 0 })
    const key = randomUUID()
    await pool.query(
      `INSERT INTO ${table} (key, token, status, body, expires_at) VALUES ($1, 'old', 200, 'x', now() - interval '1 second')`,
      [key],
    )
    expect((await store.claim(key, 60_000)).state).toBe('claimed')
  })
})

describe('the schema and the options', () => {
  it('migrates a schema-qualified table twice without complaint, from the shipped SQL', async () => {
    const schema = uniqueTable('schema')
    await pool.query(`CREATE SCHEMA ${schema}`)
    try {
      await migrate(pool, { table: `${schema}.inbox` })
      await migrate(pool, { table: `${schema}.inbox` })
      const [index] = await rowsOf('SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [
        schema,
        'inbox_expires_at',
      ])
      expect(index).toBeDefined()
      expect(schemaSql({ table: `${schema}.inbox` })).toContain(`CREATE TABLE IF NOT EXISTS ${schema}.inbox (`)
    } finally {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`)
    }
  })

  it('refuses a table name that is not a plain identifier, before any SQL', () => {
    for (const bad of ['Dedup', 'a;DROP TABLE x', 'a.b.c', '"quoted"', '', 'x'.repeat(51)]) {
      expect(() => createPostgresStore({ pool, table: bad })).toThrow(RinghookConfigError)
      expect(() => createPostgresInbox({ pool, table: bad })).toThrow(RinghookConfigError)
      expect(() => schemaSql({ table: bad })).toThrow(RinghookConfigError)
    }
    expect(() => createPostgresStore({ pool: {} as pg.Pool })).toThrow(/needs `pool`/)
    expect(() => createPostgresStore({ pool, queryTimeoutMs: 0 })).toThrow(/queryTimeoutMs/)
    expect(() => createPostgresInbox({ pool, completedTtlMs: -1 })).toThrow(/completedTtlMs/)
  })
})
