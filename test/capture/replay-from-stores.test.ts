// Capture to Redis and Postgres, read back, replay: a receiver on 127.0.0.1 captures real signed
// HTTP deliveries to a Redis stream and a Postgres table at once (the real sinks), the readers read
// both back, and replay() sends each store's records to a second receiver of its own, signed with
// that receiver's secret. Each must be handled there as it was at the source.

import { replay } from '@ringhook/capture'
import { type CapturedDelivery, type CaptureSink, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { migrate, postgresCaptureSink, readPostgresCaptures } from '@ringhook/postgres'
import { readRedisCaptures, redisCaptureSink } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Running, startReceiver } from '../../packages/capture/test/servers.js'
import { connectPostgres, uniqueTable } from '../postgres/support/postgres.js'
import { connectRedis, uniquePrefix } from '../redis/support/redis.js'

const production = 'whsec_stores_production'
const desk = 'whsec_stores_desk'

const at = new Date().toISOString()
const gesture = (user: string, data: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'swipe_up',
    user_app_id: user,
    app_id: 'app_s',
    timestamp: at,
    data,
  })
const traffic = [
  gesture('u_a'),
  gesture('u_a'), // a retry: answered as a duplicate
  gesture('u_b', { fail: true }),
  JSON.stringify({
    event: 'notification.responded',
    user_app_id: 'u_c',
    app_id: 'app_s',
    timestamp: at,
    data: { event_id: 'evt_c', response: 'yes' },
  }),
]

describe('replaying what Redis and Postgres captured', () => {
  let redis: Redis
  let pool: pg.Pool
  const stream = `${uniquePrefix('replay-stores')}stream`
  const table = uniqueTable('replay_captures')
  const running: Running[] = []

  beforeAll(async () => {
    ;[redis, pool] = await Promise.all([connectRedis(), connectPostgres()])
    await migrate(pool)
    await pool.query(`CREATE TABLE ${table} (LIKE ringhook_captures INCLUDING ALL)`)
  })
  afterAll(async () => {
    await Promise.all(running.map((server) => server.close()))
    await redis.del(stream)
    redis.disconnect()
    await pool.query(`DROP TABLE IF EXISTS ${table}`)
    await pool.end()
  })

  it('sends the records read from each store to another receiver, handled as the originals were', async () => {
    const sinks = [redisCaptureSink({ client: redis, key: stream }), postgresCaptureSink({ pool, table })]
    const captured: CapturedDelivery[] = []
    const both: CaptureSink = {
      write: async (records) => {
        captured.push(...records)
        await Promise.all(sinks.map((sink) => sink.write(records)))
      },
    }
    const capture = createCapture({ sink: both, personal: false })
    const source = await startReceiver({ secret: production, capture })
    running.push(source)
    const originals: { status: number; body: string }[] = []
    for (const body of traffic) {
      const { headers } = await signWebhook({ secret: production, body })
      const response = await fetch(source.url, { method: 'POST', headers, body })
      originals.push({ status: response.status, body: await response.text() })
    }
    await capture.flush()
    expect(capture.stats()).toMatchObject({ written: 4, failed: 0 })
    expect(originals.map((o) => o.status)).toEqual([200, 200, 500, 200])

    const fromRedis = await readRedisCaptures({ client: redis, stream })
    const fromPostgres = await readPostgresCaptures({ pool, table })
    expect(fromRedis).toEqual(captured)
    expect(fromPostgres).toEqual(captured)

    for (const records of [fromRedis, fromPostgres]) {
      const target = await startReceiver({ secret: desk })
      running.push(target)
      const summary = await replay(records, { url: target.url, secret: desk })
      expect(summary.sent).toBe(4)
      expect(summary.results.map((r) => r.answer?.status)).toEqual(originals.map((o) => o.status))
      expect(summary.results.map((r) => r.answer?.body)).toEqual(originals.map((o) => o.body))
      expect(summary.results.map((r) => r.answer?.duplicate)).toEqual([false, true, false, false])
      expect(target.handled).toEqual(['gesture:u_a', 'notification.responded:u_c'])
    }

    // A filtered read replays only what it kept: the failure, which fails again.
    const failed = await readPostgresCaptures({ pool, table, filter: { outcome: 'failed' } })
    const target = await startReceiver({ secret: desk })
    running.push(target)
    const summary = await replay(failed, { url: target.url, secret: desk })
    expect(summary.statuses).toEqual({ '500': 1 })
    expect(target.handled).toEqual([])
  })
})
