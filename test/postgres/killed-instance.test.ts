// A receiver process on the inbox killed with SIGKILL at each point of a delivery, many times; the
// service's retry reaches a receiver started again. Whatever the point, the handler's effect is in
// the database exactly once, and the delivery is answered (as a duplicate once it was committed).
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { post, responded, signed } from '../support/events.js'
import type { KillPoint } from './support/inbox-instance.js'
import { type ChildInstance, startChild } from './support/instances.js'
import { connectPostgres, dropTable, freshTable, uniqueTable } from './support/postgres.js'

const ROUNDS = 4
let pool: pg.Pool
let table: string
const effects = uniqueTable('effects')
let survivor: ChildInstance | undefined

beforeAll(async () => {
  pool = await connectPostgres()
  table = await freshTable(pool, 'killed')
  // No unique constraint: a handler that ran twice leaves two rows.
  await pool.query(`CREATE TABLE ${effects} (event_id text NOT NULL, pid int NOT NULL)`)
  survivor = await startChild(table, effects)
})

afterAll(async () => {
  await survivor?.stop()
  await dropTable(pool, table)
  await dropTable(pool, effects)
  await pool.end()
})

const effectCount = async (id: string): Promise<number> => {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${effects} WHERE event_id = $1`, [id])
  return (rows[0] as { n: number }).n
}

/** The service's retries: sent again until answered 2xx (a 409 while Postgres notices the dead connection). */
const retryUntilAnswered = (url: string, delivery: Awaited<ReturnType<typeof signed>>) =>
  poll('the retry to be answered 2xx', async () => {
    const answer = await post(url, delivery)
    if (answer.status === 200) return answer
    expect(answer.status).toBe(409)
    return undefined
  })

describe.each<KillPoint>(['claim', 'write', 'commit'])('a receiver killed after the %s', (point) => {
  it(`applies the effect exactly once, ${ROUNDS} times over`, { timeout: 120_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = `evt_${point}_${round}_${randomUUID()}`
      const delivery = await signed(responded(id))
      const doomed = await startChild(table, effects, { killAt: point })
      // The process dies mid-delivery: the connection drops without an answer.
      await expect(post(doomed.url, delivery)).rejects.toThrow()
      await doomed.exited
      expect(doomed.child.signalCode).toBe('SIGKILL')
      // Committed only when it died after the commit.
      expect(await effectCount(id)).toBe(point === 'commit' ? 1 : 0)

      const retry = await retryUntilAnswered((survivor as ChildInstance).url, delivery)
      expect(retry.body).toEqual({ ok: true })
      expect(retry.headers.get('x-ringhook-duplicate')).toBe(point === 'commit' ? 'true' : null)
      expect(await effectCount(id)).toBe(1)
      // And every later copy is a duplicate that changes nothing.
      const copy = await post((survivor as ChildInstance).url, delivery)
      expect(copy.status).toBe(200)
      expect(copy.headers.get('x-ringhook-duplicate')).toBe('true')
      expect(await effectCount(id)).toBe(1)
    }
  })
})
