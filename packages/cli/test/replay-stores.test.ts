// `ringhook replay --redis` and `--postgres`: the deliveries of captureTraffic(), written by the real
// sinks to the shared Redis (a stream of this run's own) and Postgres (a table of its own), replayed
// by the CLI to a receiver on 127.0.0.1 with another secret. In process from the sources, as
// cli-replay.test.ts runs the file source; the last test runs the built bin, which must exit by
// itself once it has read a store: its connections closed.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { ReplaySummary } from '@ringhook/capture'
import type { CapturedDelivery, CaptureSink } from '@ringhook/core/capture'
import { migrate, postgresCaptureSink } from '@ringhook/postgres'
import { redisCaptureSink } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres, SHARED_POSTGRES, uniqueTable } from '../../../test/postgres/support/postgres.js'
import { connectRedis, SHARED_REDIS_PORT, uniquePrefix } from '../../../test/redis/support/redis.js'
import { assertBuilt } from '../../../test/runtimes/built.js'
import { captureTraffic } from '../../../test/support/capture-traffic.js'
import { holdPort } from '../../../test/support/ports.js'
import { type Running, startReceiver } from '../../capture/test/servers.js'
import { inProcess } from './in-process.js'

const production = 'whsec_cli_stores_production'
const desk = 'whsec_cli_stores_desk'
const REDIS = `redis://127.0.0.1:${SHARED_REDIS_PORT}/0`
const BIN = fileURLToPath(new URL('../bin/ringhook.mjs', import.meta.url))

let redis: Redis
let pool: pg.Pool
const stream = `${uniquePrefix('cli-replay')}stream`
const badStream = `${uniquePrefix('cli-replay')}bad`
const table = uniqueTable('cli_replay')
const badTable = uniqueTable('cli_replay_bad')
const fromRedis = ['--redis', REDIS, '--stream', stream]
const fromPostgres = ['--postgres', SHARED_POSTGRES, '--table', table]
const running: Running[] = []
/** What the capture handed both sinks: accepted, duplicate, failed, refused, accepted. */
let captured: CapturedDelivery[] = []

/** A receiver with the desk's secret, closed after the suite. */
async function target(): Promise<Running> {
  const receiver = await startReceiver({ secret: desk })
  running.push(receiver)
  return receiver
}

beforeAll(async () => {
  ;[redis, pool] = await Promise.all([connectRedis(), connectPostgres()])
  await migrate(pool) // creates ringhook_captures, the model of this suite's tables
  for (const name of [table, badTable]) await pool.query(`CREATE TABLE ${name} (LIKE ringhook_captures INCLUDING ALL)`)
  const sinks = [redisCaptureSink({ client: redis, key: stream }), postgresCaptureSink({ pool, table })]
  const both: CaptureSink = { write: async (records) => void (await Promise.all(sinks.map((s) => s.write(records)))) }
  captured = await captureTraffic(both, production, 'app_cli_stores')
})
afterAll(async () => {
  await Promise.all(running.map((server) => server.close()))
  await redis?.del(stream, badStream)
  redis?.disconnect()
  for (const name of [table, badTable]) await pool?.query(`DROP TABLE IF EXISTS ${name}`)
  await pool?.end()
})

describe('ringhook replay from a store', () => {
  it('sends every record of the Redis stream, and of the Postgres table, answered as at the source', async () => {
    for (const from of [fromRedis, fromPostgres]) {
      const receiver = await target()
      const result = await inProcess(['replay', ...from, '--url', receiver.url, '--secret', desk, '--json'])
      expect(result.stderr).toBe('')
      expect(result.code).toBe(1) // the handler's failure fails again
      const summary = JSON.parse(result.stdout) as ReplaySummary
      expect([summary.sent, summary.unauthenticated]).toEqual([4, 0])
      expect(summary.results.map((r) => r.id)).toEqual(captured.map((record) => record.id))
      expect(summary.results.map((r) => r.original.outcome)).toEqual([
        'accepted',
        'duplicate',
        'failed',
        'refused',
        'accepted',
      ])
      expect(summary.statuses).toEqual({ '200': 3, '500': 1, skipped: 1 })
      expect(summary.results.map((r) => r.answer?.duplicate)).toEqual([false, true, false, undefined, false])
      // The delivery refused at the source for its signature is a stranger's: it is not signed again.
      expect(summary.results.map((r) => r.unauthenticated)).toEqual([false, false, false, true, false])
      expect(receiver.handled).toEqual(['gesture:u_1', 'notification.responded:u_4'])
    }
  })

  it('reads only what --outcome, --event and --id keep', async () => {
    const failed = await target()
    const redisFailed = await inProcess([
      'replay',
      ...fromRedis,
      '--url',
      failed.url,
      '--secret',
      desk,
      '--outcome',
      'failed',
    ])
    expect(redisFailed.code).toBe(1)
    expect(redisFailed.stdout).toMatch(/✘ gesture \S+: 500 \(was 500 handler_error\)/)
    expect(redisFailed.stdout).toContain(`Replayed 1 deliveries to ${failed.url}: 500 ×1.`)
    expect(failed.handled).toEqual([])

    const gestures = await target()
    const pgGestures = await inProcess([
      'replay',
      ...fromPostgres,
      '--url',
      gestures.url,
      '--secret',
      desk,
      '--outcome',
      'accepted,duplicate',
      '--event',
      'gesture',
    ])
    expect(pgGestures.code).toBe(0)
    expect(pgGestures.stdout).toContain(`Replayed 2 deliveries to ${gestures.url}: 200 ×2.`)
    expect(pgGestures.stdout).toMatch(/✔ gesture \S+: 200 duplicate \(was 200\)/)
    expect(gestures.handled).toEqual(['gesture:u_1'])

    const last = captured.at(-1) as CapturedDelivery
    for (const from of [fromRedis, fromPostgres]) {
      const dry = await inProcess([
        'replay',
        ...from,
        '--url',
        gestures.url,
        '--secret',
        desk,
        '--id',
        last.id,
        '--dry-run',
      ])
      expect(dry.code).toBe(0)
      expect(dry.stdout).toContain(`→ notification.responded ${last.id} (was 200)`)
      expect(dry.stdout).toContain('Dry run: 1 deliveries would be sent')
    }
  })

  it('answers a stream or table that is not there, or holds no captures, with exit 2 and what is wrong', async () => {
    const { url } = await target()
    const base = ['--url', url, '--secret', desk]
    const noStream = await inProcess(['replay', '--redis', REDIS, '--stream', `${stream}:none`, ...base])
    expect(noStream.code).toBe(2)
    expect(noStream.stderr).toContain(`✘ No stream "${stream}:none" in Redis at ${REDIS}`)
    const noTable = await inProcess(['replay', '--postgres', SHARED_POSTGRES, '--table', `${table}_none`, ...base])
    expect(noTable.code).toBe(2)
    expect(noTable.stderr).toContain(`✘ No table "${table}_none" in Postgres at postgres://127.0.0.1:5432/test`)
    // Without --stream or --table, the sinks' defaults: database 15 of the shared Redis, and the
    // `postgres` database, hold none (every suite writes to database 0, and to `test`).
    const noDefaultStream = await inProcess(['replay', '--redis', `redis://127.0.0.1:${SHARED_REDIS_PORT}/15`, ...base])
    expect(noDefaultStream.code).toBe(2)
    expect(noDefaultStream.stderr).toContain('No stream "ringhook:captures"')
    const noDefaultTable = await inProcess([
      'replay',
      '--postgres',
      'postgres://postgres@127.0.0.1:5432/postgres',
      ...base,
    ])
    expect(noDefaultTable.code).toBe(2)
    expect(noDefaultTable.stderr).toContain('No table "ringhook_captures"')

    await redis.xadd(badStream, '*', 'record', '{"v":1}')
    const badEntry = await inProcess(['replay', '--redis', REDIS, '--stream', badStream, ...base])
    expect(badEntry.code).toBe(2)
    expect(badEntry.stderr).toMatch(new RegExp(`✘ ${badStream} entry \\d+-\\d+ is not a captured delivery`))
    await pool.query(
      `INSERT INTO ${badTable} (id, received_at, outcome, record) VALUES ('bad_row', now(), 'accepted', '{"v":1}')`,
    )
    const badRow = await inProcess(['replay', '--postgres', SHARED_POSTGRES, '--table', badTable, ...base])
    expect(badRow.code).toBe(2)
    expect(badRow.stderr).toContain(`✘ ${badTable} row bad_row is not a captured delivery`)
    for (const result of [noStream, noTable, badEntry, badRow]) expect(result.stderr).not.toMatch(/^\s+at /m)
    expect(running.at(-1)?.handled).toEqual([])
  })

  it('takes one source, and store URLs only', async () => {
    const base = ['--url', 'http://127.0.0.1:9/webhooks', '--secret', desk]
    const cases: [string[], string][] = [
      [['replay', 'captures.jsonl', ...fromRedis, ...base], 'Give one source of captures'],
      [['replay', ...fromRedis, ...fromPostgres, ...base], 'Give one source of captures'],
      [['replay', ...base], 'Give the captures to replay'],
      [['replay', 'captures.jsonl', '--stream', stream, ...base], '--stream goes with --redis'],
      [['replay', ...fromRedis, '--table', table, ...base], '--table goes with --postgres'],
      [['replay', '--redis', 'localhost:6379', ...base], '--redis takes a redis:// or rediss:// URL'],
      [['replay', '--postgres', 'not a url', ...base], '--postgres takes a URL'],
      [['replay', '--postgres', SHARED_POSTGRES, '--table', 'Bad-Name', ...base], '--table: '],
    ]
    for (const [args, message] of cases) {
      const result = await inProcess(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
    expect((await inProcess(['replay', '--help'])).stdout).toContain('--redis <url>')
  })

  it('says when Redis or Postgres does not answer, exits 3 within seconds, and prints no stack', async () => {
    // A port held with no server behind it: every connection is cut as it is accepted.
    const down = await holdPort()
    try {
      const { url } = await target()
      for (const [flag, store] of [
        ['--redis', `redis://127.0.0.1:${down.port}/0`],
        ['--postgres', `postgres://postgres@127.0.0.1:${down.port}/test`],
      ] as const) {
        const started = performance.now()
        const result = await inProcess(['replay', flag, store, '--url', url, '--secret', desk])
        expect(performance.now() - started).toBeLessThan(3_000)
        expect(result.code).toBe(3)
        const name = flag === '--redis' ? 'Redis' : 'Postgres'
        expect(result.stderr).toMatch(new RegExp(`^✘ .*${name} at ${flag.slice(2)}://127\\.0\\.0\\.1:${down.port}/`))
        expect(result.stderr).not.toMatch(/^\s+at /m)
        expect(result.stdout).toBe('')
      }
    } finally {
      await down.close()
    }
  })

  it('exits by itself, the built bin, once it has read a store or found it down', async () => {
    assertBuilt('core', 'capture', 'redis', 'postgres', 'cli')
    const down = await holdPort()
    const bin = async (args: string[]) => {
      const child = spawn(
        process.execPath,
        [BIN, 'replay', ...args, '--url', 'http://127.0.0.1:9/', '--secret', desk],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      const started = performance.now()
      const [code] = (await once(child, 'exit')) as [number | null]
      return { code, stdout, stderr, ms: performance.now() - started }
    }
    try {
      for (const from of [fromRedis, fromPostgres]) {
        const result = await bin([...from, '--dry-run'])
        expect(result.stderr).toBe('')
        expect(result.code).toBe(0)
        expect(result.stdout).toContain('Dry run: 4 deliveries would be sent')
      }
      const unreachable = await bin(['--redis', `redis://127.0.0.1:${down.port}/0`])
      expect(unreachable.code).toBe(3)
      expect(unreachable.ms).toBeLessThan(5_000)
      expect(unreachable.stderr).toContain(`Redis at redis://127.0.0.1:${down.port}/0 did not answer`)
    } finally {
      await down.close()
    }
  })
})
