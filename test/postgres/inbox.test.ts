// The inbox in this process, attacked where its guarantee could break: a commit that fails, a
// completion that fails after the handler wrote, a connection killed mid-handler, a pool with no
// connection left. In each case nothing is acknowledged that was not committed, and the retry
// applies the effect exactly once. A gesture's vibe, recorded after that commit, reaches its copies.
import { randomUUID } from 'node:crypto'
import { vibe } from '@ringhook/core'
import { createPostgresInbox } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gesture, post, responded, signed } from '../support/events.js'
import { gate } from '../support/gate.js'
import { connectPostgres, dropTable, freshTable, uniqueTable } from './support/postgres.js'
import { serve } from './support/receiver.js'

let admin: pg.Pool
const tables: string[] = []

beforeAll(async () => {
  admin = await connectPostgres()
})

afterAll(async () => {
  for (const table of tables) await dropTable(admin, table)
  await admin.end()
})

/** A dedup table and an effects table of this test's own. */
async function tablesFor(label: string, effectsColumns = 'event_id text NOT NULL') {
  const table = await freshTable(admin, label)
  const effects = uniqueTable(`${label}_fx`)
  await admin.query(`CREATE TABLE ${effects} (${effectsColumns})`)
  tables.push(table, effects)
  const count = async (id: string) =>
    (
      (await admin.query(`SELECT count(*)::int AS n FROM ${effects} WHERE event_id = $1`, [id])).rows[0] as {
        n: number
      }
    ).n
  return { table, effects, count }
}

describe('the Postgres inbox under failure', () => {
  it('answers 500 when the commit fails, keeps nothing, and commits once on the retry', async () => {
    // A deferred unique constraint is checked at COMMIT: the handler's statements all succeed, the commit does not.
    const { table, effects, count } = await tablesFor(
      'commit',
      'event_id text NOT NULL, slot int UNIQUE DEFERRABLE INITIALLY DEFERRED',
    )
    await admin.query(`INSERT INTO ${effects} (event_id, slot) VALUES ('blocker', 1)`)
    const pool = await connectPostgres()
    const inbox = createPostgresInbox({ pool, table })
    const app = await serve(inbox)
    app.receiver.on(
      'notification.responded',
      inbox.handler(async (event, tx) => {
        await tx.query(`INSERT INTO ${effects} (event_id, slot) VALUES ($1, 1)`, [event.data.event_id])
      }),
    )
    try {
      const id = randomUUID()
      const delivery = await signed(responded(id))
      const first = await post(app.url, delivery)
      expect(first.status).toBe(500)
      expect(first.body).toMatchObject({ error: { code: 'handler_error' } })
      expect(await count(id)).toBe(0)

      await admin.query(`DELETE FROM ${effects} WHERE event_id = 'blocker'`)
      const retry = await post(app.url, delivery)
      expect(retry.status).toBe(200)
      expect(retry.headers.get('x-ringhook-duplicate')).toBeNull()
      const copy = await post(app.url, delivery)
      expect(copy.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(await count(id)).toBe(1)
    } finally {
      await app.close()
      await inbox.close()
      await pool.end()
    }
  })

  it("answers 5xx when the delivery's completion fails after the handler wrote, and keeps none of its writes", async () => {
    // The window between the two commits: the handler's statements all succeed, then recording the
    // delivery's completion fails. Its writes must go with it, or the retry would apply them again.
    const { table, effects, count } = await tablesFor('window')
    const refuse = `${table}_refuse`
    await admin.query(
      `CREATE FUNCTION ${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'completion refused by the test'; END $$`,
    )
    // Only the completion sets a status: the claim's insert, and the handler's writes, pass.
    await admin.query(
      `CREATE TRIGGER refuse_completion BEFORE UPDATE ON ${table} FOR EACH ROW WHEN (NEW.status IS NOT NULL) EXECUTE FUNCTION ${refuse}()`,
    )
    const pool = await connectPostgres()
    const inbox = createPostgresInbox({ pool, table })
    const app = await serve(inbox)
    let runs = 0
    app.receiver.on(
      'notification.responded',
      inbox.handler(async (event, tx) => {
        runs++
        await tx.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.data.event_id])
      }),
    )
    try {
      const id = randomUUID()
      const delivery = await signed(responded(id))
      const first = await post(app.url, delivery)
      expect(first.status).toBeGreaterThanOrEqual(500)
      expect(runs).toBe(1)
      expect(await count(id)).toBe(0)

      await admin.query(`DROP TRIGGER refuse_completion ON ${table}`)
      const retry = await post(app.url, delivery)
      expect(retry.status).toBe(200)
      expect(retry.headers.get('x-ringhook-duplicate')).toBeNull()
      expect(runs).toBe(2)
      expect(await count(id)).toBe(1)
    } finally {
      await app.close()
      await inbox.close()
      await pool.end()
      await admin.query(`DROP FUNCTION IF EXISTS ${refuse}() CASCADE`)
    }
  })

  it("answers 500 when the transaction's connection is killed mid-handler; the retry commits once", async () => {
    const { table, effects, count } = await tablesFor('killed')
    const pool = await connectPostgres()
    const inbox = createPostgresInbox({ pool, table })
    const app = await serve(inbox)
    const held = gate()
    let backend: (pid: number) => void = () => {}
    const wrote = new Promise<number>((resolve) => {
      backend = resolve
    })
    app.receiver.on(
      'notification.responded',
      inbox.handler(async (event, tx) => {
        await tx.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.data.event_id])
        const { rows } = await tx.query('SELECT pg_backend_pid() AS pid')
        backend(rows[0].pid)
        await held.promise
      }),
    )
    try {
      const id = randomUUID()
      const delivery = await signed(responded(id))
      const answer = post(app.url, delivery)
      // As a Postgres restart or a failover does to this one connection.
      await admin.query('SELECT pg_terminate_backend($1)', [await wrote])
      held.open()
      const first = await answer
      expect(first.status).toBe(500)
      expect(await count(id)).toBe(0)

      const retry = await post(app.url, delivery)
      expect(retry.status).toBe(200)
      expect(await count(id)).toBe(1)
    } finally {
      await app.close()
      await inbox.close()
      await pool.end()
    }
  })

  it('answers 503 while the pool has no connection free, and acknowledges only what committed', async () => {
    const { table, effects, count } = await tablesFor('exhausted')
    const pool = await connectPostgres({ max: 3 })
    const inbox = createPostgresInbox({ pool, table, queryTimeoutMs: 300 })
    const app = await serve(inbox)
    const held = gate()
    let holding = 0
    let allHeld: () => void = () => {}
    const threeHeld = new Promise<void>((resolve) => {
      allHeld = resolve
    })
    app.receiver.on(
      'notification.responded',
      inbox.handler(async (event, tx) => {
        await tx.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.data.event_id])
        if (++holding === 3) allHeld()
        await held.promise
      }),
    )
    try {
      const ids = Array.from({ length: 10 }, () => randomUUID())
      const deliveries = await Promise.all(ids.map((id) => signed(responded(id))))
      const first = deliveries.slice(0, 3).map((delivery) => post(app.url, delivery))
      await threeHeld
      // Every connection is in a transaction now: the rest wait for one, then give up.
      const rest = await Promise.all(deliveries.slice(3).map((delivery) => post(app.url, delivery)))
      for (const answer of rest) {
        expect(answer.status).toBe(503)
        expect(answer.body).toMatchObject({ error: { code: 'store_unavailable' } })
        expect(answer.headers.get('retry-after')).toBe('1')
      }
      held.open()
      for (const answer of await Promise.all(first)) expect(answer.status).toBe(200)

      // The service's retries, once connections are free again.
      for (const delivery of deliveries.slice(3)) expect((await post(app.url, delivery)).status).toBe(200)
      for (const id of ids) expect(await count(id)).toBe(1)
    } finally {
      await app.close()
      await inbox.close()
      await pool.end()
    }
  })

  it('rolls the handler back when it throws: 500, nothing kept, and the retry runs it again', async () => {
    const { table, effects, count } = await tablesFor('throws')
    const pool = await connectPostgres()
    const inbox = createPostgresInbox({ pool, table })
    const app = await serve(inbox)
    let runs = 0
    app.receiver.on(
      'notification.responded',
      inbox.handler(async (event, tx) => {
        await tx.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.data.event_id])
        if (++runs === 1) throw new Error('the first run fails after its write')
      }),
    )
    try {
      const id = randomUUID()
      const delivery = await signed(responded(id))
      expect((await post(app.url, delivery)).status).toBe(500)
      expect(await count(id)).toBe(0)
      expect((await post(app.url, delivery)).status).toBe(200)
      expect(await count(id)).toBe(1)
      expect(runs).toBe(2)
    } finally {
      await app.close()
      await inbox.close()
      await pool.end()
    }
  })
})

describe("the Postgres inbox's gesture replies", () => {
  it("gives a gesture's copy the vibe its inbox handler returned, recorded after the handler's commit", async () => {
    const { table, effects, count } = await tablesFor('vibe')
    const pool = await connectPostgres()
    const inbox = createPostgresInbox({ pool, table })
    const app = await serve(inbox)
    app.receiver.on(
      'gesture',
      inbox.handler(async (event, tx) => {
        await tx.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.user_app_id])
        return vibe('pulse', 'tap').message(`saved for ${event.user_app_id}`)
      }),
    )
    try {
      const user = randomUUID()
      const delivery = await signed(gesture({ user_app_id: user }))
      const first = await post(app.url, delivery)
      expect(first.status).toBe(200)
      expect(first.body).toEqual({
        success: true,
        vibe: { sequence: [{ type: 'pulse' }, { type: 'tap' }], message: `saved for ${user}` },
      })
      // The copy reads the reply from the table alone: the vibe must have been stored there.
      const copy = await post(app.url, delivery)
      expect(copy.status).toBe(200)
      expect(copy.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(copy.body).toEqual(first.body)
      expect(await count(user)).toBe(1)
    } finally {
      await app.close()
      await inbox.close()
      await pool.end()
    }
  })
})
