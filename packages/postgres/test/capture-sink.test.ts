import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { capturedDeliverySchema, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { DEFAULT_CAPTURE_TABLE, migrate, postgresCaptureSink } from '@ringhook/postgres'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, dropTable, freshTable } from '../../../test/postgres/support/postgres.js'

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
