import { RinghookConfigError } from '@ringhook/core'
import { type CapturedDelivery, type CaptureFilter, matchesCapture } from '@ringhook/core/capture'
import { migrate, PostgresCaptureError, postgresCaptureSink, readPostgresCaptures } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, uniqueTable } from '../../../test/postgres/support/postgres.js'
import { captureTraffic } from '../../../test/support/capture-traffic.js'

const secret = 'whsec_pg_read'
/** A synthetic record arriving at `ms` past 08:00. */
const synthetic = (id: string, ms: number): CapturedDelivery => ({
  v: 1,
  id,
  receivedAt: new Date(Date.UTC(2027, 0, 15, 8) + ms).toISOString(),
  event: 'gesture',
  request: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', encoding: 'utf8', bytes: 2 },
  answer: { status: 200, headers: {}, body: '' },
  outcome: 'accepted',
})

describe('readPostgresCaptures on the shared Postgres', () => {
  let pool: pg.Pool
  const tables: string[] = []

  /** A captures table of this test's own, with the columns and index of `ringhook_captures`. */
  async function freshCaptures(): Promise<string> {
    const table = uniqueTable('captures')
    tables.push(table)
    await pool.query(`CREATE TABLE ${table} (LIKE ringhook_captures INCLUDING ALL)`)
    return table
  }

  beforeAll(async () => {
    pool = await connectPostgres()
    await migrate(pool) // creates ringhook_captures, the model of each test's own table
  })
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${table}`)
    await pool.end()
  })

  /** The five deliveries of captureTraffic() through the real sink; what the capture handed it. */
  const captureTo = (table: string) => captureTraffic(postgresCaptureSink({ pool, table }), secret, 'app_pg_read')

  it('reads back every record the sink wrote, equal to what was captured, in the order they arrived', async () => {
    const table = await freshCaptures()
    const captured = await captureTo(table)
    const records = await readPostgresCaptures({ pool, table })
    expect(records.map((r) => r.outcome)).toEqual(['accepted', 'duplicate', 'failed', 'refused', 'accepted'])
    expect(records).toEqual(captured)
  })

  it('filters in SQL as matchesCapture (and readCaptures) does, and stops at limit', async () => {
    const table = await freshCaptures()
    const captured = await captureTo(table)
    const [first, , third, fourth] = captured as [
      CapturedDelivery,
      CapturedDelivery,
      CapturedDelivery,
      CapturedDelivery,
    ]
    const read = async (filter: CaptureFilter) => {
      const records = await readPostgresCaptures({ pool, table, filter })
      expect(records).toEqual(captured.filter((record) => matchesCapture(record, filter)))
      return records.map((record) => record.outcome)
    }
    expect(await read({ outcome: 'failed' })).toEqual(['failed'])
    expect(await read({ outcome: ['refused', 'duplicate'] })).toEqual(['duplicate', 'refused'])
    expect(await read({ event: 'notification.responded' })).toEqual(['accepted'])
    // The delivery with a bad signature is not an authentic event: it has no event name.
    expect(await read({ event: ['gesture'] })).toEqual(['accepted', 'duplicate', 'failed'])
    expect(await read({ id: [first.id, fourth.id] })).toEqual(['accepted', 'refused'])
    expect(await read({ id: [] })).toEqual([])
    expect(await read({ since: third.receivedAt })).toEqual(
      captured.filter((r) => r.receivedAt >= third.receivedAt).map((r) => r.outcome),
    )
    expect(await read({ until: new Date(third.receivedAt) })).toEqual(
      captured.filter((r) => r.receivedAt < third.receivedAt).map((r) => r.outcome),
    )
    expect(await read({ since: '2000-01-01T00:00:00Z', until: '2000-01-02T00:00:00Z' })).toEqual([])
    expect(await read({ event: 'gesture', outcome: 'accepted', since: first.receivedAt })).toEqual(['accepted'])
    expect(await read({ since: 'not a time' })).toEqual([])
    const two = await readPostgresCaptures({ pool, table, filter: { event: 'gesture' }, limit: 2 })
    expect(two.map((r) => r.outcome)).toEqual(['accepted', 'duplicate'])
  })

  it('orders by arrival, not by when a record was written; one millisecond in the order stored', async () => {
    const table = await freshCaptures()
    const sink = postgresCaptureSink({ pool, table })
    // A slow delivery is answered, and so written, after one that arrived later.
    await sink.write([synthetic('late_answer_b', 5), synthetic('tie_1', 9), synthetic('tie_2', 9)])
    await sink.write([synthetic('early_a', 1), synthetic('tie_3', 9), synthetic('c', 20)])
    const ids = async (limit?: number) =>
      (await readPostgresCaptures({ pool, table, ...(limit ? { limit } : {}) })).map((r) => r.id)
    expect(await ids()).toEqual(['early_a', 'late_answer_b', 'tie_1', 'tie_2', 'tie_3', 'c'])
    expect(await ids(3)).toEqual(['early_a', 'late_answer_b', 'tie_1'])
  })

  it('throws PostgresCaptureError naming the row that is not a captured delivery', async () => {
    const table = await freshCaptures()
    await captureTo(table)
    await pool.query(
      `INSERT INTO ${table} (id, received_at, event, outcome, record) VALUES ('rec_bad', now(), 'gesture', 'failed', $1)`,
      [JSON.stringify({ v: 1, id: 'rec_bad', outcome: 'failed' })],
    )
    const error = await readPostgresCaptures({ pool, table }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PostgresCaptureError)
    expect(error).toMatchObject({ name: 'PostgresCaptureError', table, id: 'rec_bad' })
    expect((error as Error).message).toContain(`${table} row rec_bad is not a captured delivery`)
    expect((error as Error).message).toContain('receivedAt')
    // A filter that leaves the row out reads the others.
    expect(await readPostgresCaptures({ pool, table, filter: { outcome: 'accepted' } })).toHaveLength(2)
  })

  it('reads an empty table as no records, and refuses a bad table, pool or limit', async () => {
    expect(await readPostgresCaptures({ pool, table: await freshCaptures() })).toEqual([])
    await expect(readPostgresCaptures({ pool, table: 'x; DROP TABLE y' })).rejects.toThrow(RinghookConfigError)
    await expect(readPostgresCaptures({} as never)).rejects.toThrow(/pool/)
    await expect(readPostgresCaptures({ pool, limit: 0 })).rejects.toThrow(/limit/)
    await expect(readPostgresCaptures({ pool, table: 'rh_no_such_captures' })).rejects.toThrow(/does not exist/)
  })
})
