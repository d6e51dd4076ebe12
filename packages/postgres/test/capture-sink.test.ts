import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { type CapturedDelivery, capturedDeliverySchema, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { DEFAULT_CAPTURE_TABLE, migrate, postgresCaptureSink, readPostgresCaptures } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, dropTable, freshTable, uniqueTable } from '../../../test/postgres/support/postgres.js'

const secret = 'whsec_pg_capture'
const gesture = (app: string, n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: `user_${n}`,
    app_id: app,
    timestamp: new Date().toISOString(),
    data: {},
    ...extra,
  })

describe('postgresCaptureSink on the shared Postgres', () => {
  let pool: pg.Pool
  let dedupTable = ''

  beforeAll(async () => {
    pool = await connectPostgres()
    dedupTable = await freshTable(pool, 'capture')
  })
  afterAll(async () => {
    await dropTable(pool, dedupTable)
    await pool.end()
  })

  it('migrate() creates the captures table, and each answered delivery becomes one row', async () => {
    await migrate(pool)
    const app = `app_${dedupTable}`
    const capture = createCapture({ sink: postgresCaptureSink({ pool }), logger: silentLogger })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    receiver.on('gesture', (event) => {
      if (event.user_app_id === 'user_2') throw new Error('handler broke')
      return vibe('tap')
    })
    const bodies = [gesture(app, 1, { external_user_id: 'carol' }), gesture(app, 2)]
    for (const body of bodies) {
      const { headers } = await signWebhook({ secret, body })
      await receiver.handle({ method: 'POST', headers, rawBody: body })
    }
    await capture.flush()
    expect(capture.stats()).toMatchObject({ written: 2, failed: 0 })

    const { rows } = await pool.query(
      `SELECT event, outcome, code, record FROM ${DEFAULT_CAPTURE_TABLE} WHERE record->'request'->>'body' LIKE $1 ORDER BY received_at, outcome`,
      [`%${app}%`],
    )
    expect(rows.map((row) => [row.event, row.outcome, row.code])).toEqual([
      ['gesture', 'accepted', null],
      ['gesture', 'failed', 'handler_error'],
    ])
    const first = capturedDeliverySchema.parse(rows[0].record)
    expect(first.request.body).not.toContain('carol')
    expect(first.request.personal?.action).toBe('hash')
    await pool.query(`DELETE FROM ${DEFAULT_CAPTURE_TABLE} WHERE record->'request'->>'body' LIKE $1`, [`%${app}%`])
  })

  it('fails a batch (counted by the capture, answers unchanged) when its table does not exist', async () => {
    const capture = createCapture({
      sink: postgresCaptureSink({ pool, table: 'rh_no_such_captures' }),
      logger: silentLogger,
    })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    receiver.on('gesture', () => vibe('pulse'))
    const body = gesture('app_missing', 3)
    const { headers } = await signWebhook({ secret, body })
    const answer = await receiver.handle({ method: 'POST', headers, rawBody: body })
    await capture.flush()
    expect(answer.status).toBe(200)
    expect(capture.stats()).toMatchObject({ written: 0, failed: 1 })
  })

  it('refuses a bad table name or a missing pool', () => {
    expect(() => postgresCaptureSink({ pool, table: 'x; DROP TABLE y' })).toThrow(/table/)
    expect(() => postgresCaptureSink({} as never)).toThrow(/pool/)
  })
})

/** A record given straight to a sink, as a copy from another sink or an app's own code can be. */
const record = (id: string, changes: { event?: string; header?: string; body?: string; answer?: string } = {}) =>
  ({
    v: 1,
    id,
    receivedAt: '2027-01-15T08:00:00.000Z',
    event: changes.event ?? 'gesture',
    request: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-note': changes.header ?? 'plain' },
      body: changes.body ?? '{"event":"gesture"}',
      encoding: 'utf8',
      bytes: 19,
    },
    answer: { status: 200, headers: {}, body: changes.answer ?? '' },
    outcome: 'accepted',
  }) satisfies CapturedDelivery

describe('postgresCaptureSink given text Postgres refuses (NUL, lone surrogates)', () => {
  let pool: pg.Pool
  const tables: string[] = []

  /** A captures table of this test's own, with the columns of `ringhook_captures`. */
  async function freshCaptures(): Promise<string> {
    const table = uniqueTable('odd_captures')
    tables.push(table)
    await pool.query(`CREATE TABLE ${table} (LIKE ringhook_captures INCLUDING ALL)`)
    return table
  }

  beforeAll(async () => {
    pool = await connectPostgres()
    await migrate(pool)
  })
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${table}`)
    await pool.end()
  })

  it('stores every record of a batch, the odd ones as they were, and reads them back equal', async () => {
    const table = await freshCaptures()
    const batch = [
      record('good_1'),
      record('nul_body', { body: '{"event":"gesture","note":"a\u0000b"}' }),
      record('nul_header', { header: 'x\u0000y' }),
      record('nul_event\u0000id', { event: 'ges\u0000ture' }),
      record('lone_surrogate', { header: 'x\ud800y', answer: '\udc00' }),
      // Only the text of an escape: a backslash, then `u0000`.
      record('escape_as_text', { body: '{"note":"\\u0000","pair":"\\ud83d\\ude00"}' }),
      record('good_2'),
    ]
    await postgresCaptureSink({ pool, table }).write(batch)

    expect(await readPostgresCaptures({ pool, table })).toEqual(batch)
    // The filter finds an odd record by what it holds.
    const odd = await readPostgresCaptures({ pool, table, filter: { event: 'ges\u0000ture', id: 'nul_event\u0000id' } })
    expect(odd.map((r) => r.id)).toEqual(['nul_event\u0000id'])
    // The others stay plain jsonb rows, queried as such.
    const { rows } = await pool.query(`SELECT record->>'id' AS id FROM ${table} WHERE record->>'outcome' = 'accepted'`)
    expect(rows.map((row) => row.id).sort()).toEqual(['escape_as_text', 'good_1', 'good_2'])
  })

  it('loses no genuine delivery to a stranger whose request holds a NUL, through a receiver', async () => {
    const table = await freshCaptures()
    const captured: CapturedDelivery[] = []
    const sink = postgresCaptureSink({ pool, table })
    const capture = createCapture({
      sink: {
        write: (records) => {
          captured.push(...records)
          return sink.write(records)
        },
      },
      logger: silentLogger,
    })
    const receiver = createReceiver({ secret, logger: silentLogger, capture })
    receiver.on('gesture', () => vibe('tap'))
    const app = `app_${table}`
    // An adapter handing plain headers passes what arrived: NUL and lone surrogates included.
    const odd = { 'x-trace': 'a\u0000b', 'x-label': '\ud83d' }
    for (const [body, key, extra] of [
      [gesture(app, 1), secret, {}],
      [`${gesture(app, 2).slice(0, -1)},"note":"\u0000"}`, 'whsec_stranger', odd],
      [gesture(app, 3), secret, odd],
      [gesture(app, 4), secret, {}],
    ] as const) {
      const { headers } = await signWebhook({ secret: key, body })
      await receiver.handle({ method: 'POST', headers: { ...headers, ...extra }, rawBody: body })
    }
    await capture.flush()
    expect(capture.stats()).toMatchObject({ captured: 4, written: 4, failed: 0 })
    const read = await readPostgresCaptures({ pool, table })
    expect(read).toEqual(captured)
    expect(read.map((r) => [r.outcome, r.request.headers['x-trace']])).toEqual([
      ['accepted', undefined],
      ['refused', 'a\u0000b'],
      ['accepted', 'a\u0000b'],
      ['accepted', undefined],
    ])
    await receiver.close()
    await capture.close()
  })
})
