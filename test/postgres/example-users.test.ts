// examples/postgres writes each user's state in the delivery's inbox transaction: one connection
// per lifecycle delivery, the one holding its claim. A state written beside it (on a connection of
// its own) is seen here at once, as a second connection checked out of the pool while the first is
// out, instead of as a pool deadlock minutes later.
import { randomUUID } from 'node:crypto'
import { silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, createApp } from '../../examples/postgres/src/app.js'
import { connectPostgres } from './support/postgres.js'

const SECRET = 'whsec_postgres_example_users'
let pool: pg.Pool
let app: App
const user = randomUUID()

beforeAll(async () => {
  // Two connections: a state written outside the transaction gets the second, rather than waiting forever.
  pool = await connectPostgres({ max: 2 })
  app = await createApp(SECRET, pool, { logger: silentLogger })
})
afterAll(async () => {
  await app?.receiver.close()
  await app?.inbox.close()
  await pool?.query('DELETE FROM example_ringhook_users WHERE user_app_id = $1', [user])
  await pool?.end()
})

describe('examples/postgres, a lifecycle delivery', () => {
  it('writes the user’s state on the connection of its inbox transaction, and no other', async () => {
    let out = 0
    let most = 0
    pool.on('acquire', () => {
      out++
      most = Math.max(most, out)
    })
    pool.on('release', () => {
      out--
    })
    const body = JSON.stringify({
      event: 'app.activated',
      user_app_id: user,
      app_id: 'app_example_users',
      timestamp: new Date(Date.now() - 1000).toISOString(),
      data: {},
    })
    const { headers } = await signWebhook({ secret: SECRET, body })
    const response = await app.receiver.handle({ method: 'POST', headers, rawBody: body })

    expect(response.status).toBe(200)
    expect(most, 'connections checked out at once during the delivery').toBe(1)
    const { rows } = await pool.query('SELECT state, source FROM example_ringhook_users WHERE user_app_id = $1', [user])
    expect(rows).toEqual([{ state: 'active', source: 'webhook' }])
  })
})
