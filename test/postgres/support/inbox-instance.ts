// A receiver instance on the Postgres inbox, in a process of its own (started with fork() by the
// crash and concurrency suites). Its handler writes one row per run into the effects table, inside
// the delivery's transaction. With RINGHOOK_KILL_AT it kills itself with SIGKILL at that point of
// every delivery, as a host dies: after the claim, after the handler's write, after the commit.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createPostgresInbox } from '@ringhook/postgres'
import pg from 'pg'
import { NOW_MS, SECRET } from '../../support/events.js'
import { SHARED_POSTGRES } from './postgres.js'

/** Where a delivery can be killed. */
export type KillPoint = 'claim' | 'write' | 'commit'
/** Messages this process sends to its test. */
export type InstanceMessage = { type: 'ready'; port: number }

const { RINGHOOK_PG_TABLE: table, RINGHOOK_PG_EFFECTS: effects, RINGHOOK_KILL_AT: killAt } = process.env
const holdMs = Number(process.env.RINGHOOK_HOLD_MS ?? 0)
if (!table || !effects || !process.send) throw new Error('inbox-instance.ts is started by the Postgres suites')

const die = (point: KillPoint) => {
  if (killAt === point) process.kill(process.pid, 'SIGKILL')
}

const pool = new pg.Pool({ connectionString: SHARED_POSTGRES, max: 20 })
pool.on('error', () => {})
const inbox = createPostgresInbox({ pool, table, queryTimeoutMs: 5_000 })
// Dies after the handler's commit and before the receiver answers: the first thing the receiver
// does then is record the reply.
const complete = inbox.complete
inbox.complete = (...args) => {
  die('commit')
  return complete(...args)
}
const receiver = createReceiver({
  secret: SECRET,
  now: () => NOW_MS,
  logger: silentLogger,
  store: inbox,
  onDeadline: 'retry',
})
const record = async (tx: pg.PoolClient, id: string) => {
  die('claim')
  await tx.query(`INSERT INTO ${effects} (event_id, pid) VALUES ($1, $2)`, [id, process.pid])
  if (holdMs > 0) await tx.query('SELECT pg_sleep($1)', [holdMs / 1000])
  die('write')
}
receiver.on(
  'notification.responded',
  inbox.handler(async (event, tx) => {
    await record(tx, event.data.event_id)
  }),
)
receiver.on(
  'gesture',
  inbox.handler(async (event, tx) => {
    await record(tx, event.timestamp)
    return vibe('tap').message(`pid ${process.pid}`)
  }),
)
const server = createServer(ringhook(receiver)).listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies InstanceMessage)
})
