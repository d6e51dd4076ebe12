// examples/postgres when a query of its own fails: GET /users answers 500 and logs it, and the
// process goes on serving webhooks. The example runs in a schema of this test's own (its
// search_path), so the table renamed here is no other suite's.
import { randomUUID } from 'node:crypto'
import { signWebhook } from '@ringhook/core/signature'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp, listeningPort, type Started, startExample, stop } from '../examples/harness.js'
import { poll } from '../redis/support/poll.js'
import { assertBuilt } from '../runtimes/built.js'
import { connectPostgres, SHARED_POSTGRES } from './support/postgres.js'

assertBuilt('core', 'node', 'postgres', 'users')

const SECRET = 'whsec_postgres_example_admin'
const ADMIN_TOKEN = 'admin_token_for_the_postgres_admin_tests_0123'
const schema = `rh_example_admin_${randomUUID().replaceAll('-', '').slice(0, 12)}`
let pool: pg.Pool
let started: Started | undefined
let base = ''

beforeAll(async () => {
  pool = await connectPostgres()
  await pool.query(`CREATE SCHEMA ${schema}`)
  started = startExample('postgres', {
    RING_WEBHOOK_SECRET: SECRET,
    PORT: '0',
    ADMIN_TOKEN,
    DATABASE_URL: `${SHARED_POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
  })
  base = `http://127.0.0.1:${await listeningPort(started)}`
}, 60_000)

afterAll(async () => {
  if (started) {
    await stop(started).catch(() => {})
    cleanUp(started)
  }
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await pool.end()
})

const users = () => fetch(`${base}/users`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })

async function gesture(user: string) {
  return deliver({ event: 'gesture', gesture_type: 'tap', user_app_id: user })
}

async function deliver(fields: Record<string, unknown>) {
  const body = JSON.stringify({ app_id: 'app_admin', timestamp: new Date().toISOString(), data: {}, ...fields })
  const { headers } = await signWebhook({ secret: SECRET, body })
  const response = await fetch(`${base}/webhooks`, { method: 'POST', headers, body })
  return { status: response.status, body: await response.text() }
}

describe('examples/postgres, its users’ states', () => {
  it('keeps every user_app_id the receiver accepts, and lists each', async () => {
    const ids = [
      `u_\u0000${randomUUID()}`,
      randomUUID().replaceAll('-', '').repeat(85).slice(0, 2700),
      `u_\ud800${randomUUID()}`,
    ]
    for (const user_app_id of ids)
      expect(await deliver({ event: 'app.activated', user_app_id })).toMatchObject({ status: 200 })
    const listed = (await (await users()).json()) as { users: Array<{ user_app_id: string; state: string }> }
    for (const id of ids)
      expect(listed.users).toContainEqual(expect.objectContaining({ user_app_id: id, state: 'active' }))
  })

  it('refuses a timestamp a state cannot keep with 400, once, not 500 on every retry', async () => {
    for (const timestamp of [
      '-271821-04-20T00:00:00.000Z',
      '+100000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.998Z',
    ]) {
      const answer = await deliver({ event: 'app.activated', user_app_id: `u_${randomUUID()}`, timestamp })
      expect(answer.status).toBe(400)
      expect(answer.body).toContain('invalid_payload')
    }
  })
})

describe('examples/postgres, its admin route on a failing query', () => {
  it('answers GET /users 500 with a log line, and keeps serving webhooks', async () => {
    const { rows } = await pool.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'example_ringhook_users'`,
      [schema],
    )
    expect(rows).toHaveLength(1) // the example's tables are in this test's schema
    expect((await users()).status).toBe(200)

    await pool.query(`ALTER TABLE ${schema}.example_ringhook_users RENAME TO example_ringhook_users_away`)
    const failed = await users()
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ error: { code: 'internal_error' } })
    await poll('the failure is logged', async () =>
      /GET \/users failed: /.test(started?.output() ?? '') ? true : undefined,
    )
    expect(started?.child.exitCode).toBeNull()
    expect(await gesture('u_after_failure')).toMatchObject({ status: 200 })

    await pool.query(`ALTER TABLE ${schema}.example_ringhook_users_away RENAME TO example_ringhook_users`)
    expect((await users()).status).toBe(200)
    expect(await gesture('u_after_recovery')).toMatchObject({ status: 200 })
  }, 30_000)
})
