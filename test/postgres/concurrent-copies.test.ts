// The same delivery sent 200 times at once to three receiver processes on one database: one
// effect; every copy is answered 200 or 409 (while the original's transaction is open), and each
// 409 sent again afterwards is answered 200 as a duplicate with the original's reply.
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gesture, post, signed } from '../support/events.js'
import { type ChildInstance, startChild } from './support/instances.js'
import { connectPostgres, dropTable, freshTable, uniqueTable } from './support/postgres.js'

const COPIES = 200
let pool: pg.Pool
let table: string
const effects = uniqueTable('effects')
const instances: ChildInstance[] = []

beforeAll(async () => {
  pool = await connectPostgres()
  table = await freshTable(pool, 'copies')
  await pool.query(`CREATE TABLE ${effects} (event_id text NOT NULL, pid int NOT NULL)`)
  // The handler holds its transaction 200 ms, so that copies arrive while it is open.
  instances.push(...(await Promise.all([0, 1, 2].map(() => startChild(table, effects, { holdMs: 200 })))))
})

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()))
  await dropTable(pool, table)
  await dropTable(pool, effects)
  await pool.end()
})

describe('200 copies of one gesture at once, on three processes', () => {
  it('runs the handler once and answers every copy 200, or 409 and then the same 200', async () => {
    const payload = gesture()
    const delivery = await signed(payload)
    const answers = await Promise.all(
      Array.from({ length: COPIES }, (_, i) => post((instances[i % 3] as ChildInstance).url, delivery)),
    )
    const statuses = new Set(answers.map((answer) => answer.status))
    expect([...statuses].every((status) => status === 200 || status === 409)).toBe(true)
    const originals = answers.filter((answer) => answer.status === 200 && !answer.headers.has('x-ringhook-duplicate'))
    expect(originals).toHaveLength(1)
    const reply = originals[0]?.body
    expect(reply).toMatchObject({ success: true, vibe: { message: expect.stringMatching(/^pid \d+$/) } })

    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${effects} WHERE event_id = $1`, [
      payload.timestamp,
    ])
    expect(rows[0]).toEqual({ n: 1 })

    for (const [i, answer] of answers.entries()) {
      if (answer.status === 200) continue
      expect(answer.headers.get('retry-after')).toBe('1')
      const again = await post((instances[i % 3] as ChildInstance).url, delivery)
      expect(again.status).toBe(200)
      expect(again.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(again.body).toEqual(reply)
    }
    const duplicates = answers.filter((answer) => answer.headers.get('x-ringhook-duplicate') === 'true')
    for (const duplicate of duplicates) expect(duplicate.body).toEqual(reply)
  })
})
