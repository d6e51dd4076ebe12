// Users' states on Postgres, written in each delivery's inbox transaction by three receiver processes
// behind one URL, one killed mid-run.
import { migrate, migrateUserStates, postgresUserStore } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { connectPostgres, dropTable, uniqueTable } from '../postgres/support/postgres.js'
import { fleetRun } from './support/fleet.js'

const states = uniqueTable('users')
const dedup = uniqueTable('users_dedup')
let pool: pg.Pool

beforeAll(async () => {
  pool = await connectPostgres()
  await migrate(pool, { table: dedup })
  await migrateUserStates(pool, { table: states })
})
afterAll(async () => {
  if (pool) for (const table of [states, dedup]) await dropTable(pool, table)
  await pool?.end()
})

describe('states on Postgres', () => {
  it('equal the service’s for 2,000 users, three instances, one SIGKILLed and restarted', async () => {
    await fleetRun(
      { USERS_STORE: 'postgres', USERS_WHERE: states, DEDUP_WHERE: dedup },
      postgresUserStore({ pool, table: states }),
    )
  }, 180_000)
})
