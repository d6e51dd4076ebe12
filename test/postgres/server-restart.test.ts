// The whole Postgres server restarted under load: stopped as a crash does (`pg_ctl stop -m immediate`:
// no checkpoint, every connection cut mid-transaction), then started again on the same port. It runs
// on a private server of this test's own; the shared one on 5432 is never restarted. Both stores take
// the same load: the inbox must apply each delivery exactly once, the plain store at least once (its
// handler writes outside the claim), and neither may answer 2xx for a delivery whose write is not in
// the database.
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { createPostgresInbox, createPostgresStore, migrate } from '@ringhook/postgres'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Delivery, post, responded, signed } from '../support/events.js'
import { type PrivatePostgres, startPrivatePostgres } from './support/private-server.js'
import { serve } from './support/receiver.js'

const DELIVERIES = 300
const IN_FLIGHT = 10
/** Deliveries sent while the server is down, between the first part of the load and the rest. */
const DURING_OUTAGE = 50
/** The server is stopped once this many of the first part's deliveries were answered, per receiver. */
const STOP_AFTER = 100
/** Short claims, so a plain-store claim left in flight by the crash lapses within the retries. */
const TIMING = { deadlineMs: 2_000, dedup: { inFlightTtlMs: 3_000 } }
/** Rounds of the service's retries, a Retry-After apart, before the test gives up. */
const RETRY_ROUNDS = 60
const RETRY_AFTER_MS = 250

let server: PrivatePostgres | undefined
const pools: pg.Pool[] = []

beforeAll(async () => {
  server = await startPrivatePostgres()
}, 30_000)

afterAll(async () => {
  for (const pool of pools) await pool.end().catch(() => {})
  await server?.destroy()
}, 30_000)

/** A pool on the private server; connections cut by the restart surface through queries. */
function connect(): pg.Pool {
  const pool = new pg.Pool({ connectionString: (server as PrivatePostgres).url, max: IN_FLIGHT })
  pool.on('error', () => {})
  pools.push(pool)
  return pool
}

interface Subject {
  url: string
  /** How many times each delivery's effect is in the database. */
  effects(ids: readonly string[]): Promise<Map<string, number>>
  close(): Promise<void>
}

/** Dedup and effects tables of a receiver's own; the effects table has no unique key, so copies show. */
async function tables(admin: pg.Pool, label: string) {
  const table = `rh_restart_${label}`
  const effects = `${table}_fx`
  await migrate(admin, { table })
  await admin.query(`CREATE TABLE ${effects} (event_id text NOT NULL)`)
  const count = async (ids: readonly string[]) => {
    const { rows } = await admin.query<{ event_id: string; n: number }>(
      `SELECT event_id, count(*)::int AS n FROM ${effects} WHERE event_id = ANY($1) GROUP BY event_id`,
      [ids],
    )
    return new Map(rows.map((row) => [row.event_id, row.n]))
  }
  return { table, effects, count }
}

/** The inbox: the handler writes in the claim's transaction. */
async function inboxSubject(admin: pg.Pool): Promise<Subject> {
  const { table, effects, count } = await tables(admin, 'inbox')
  const inbox = createPostgresInbox({ pool: connect(), table })
  const app = await serve(inbox, TIMING)
  app.receiver.on(
    'notification.responded',
    inbox.handler(async (event, tx) => {
      await tx.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.data.event_id])
    }),
  )
  const close = async () => {
    await app.close()
    await inbox.close()
  }
  return { url: app.url, effects: count, close }
}

/** The plain store: the handler writes through the pool, outside the claim. */
async function storeSubject(admin: pg.Pool): Promise<Subject> {
  const { table, effects, count } = await tables(admin, 'store')
  const pool = connect()
  const store = createPostgresStore({ pool, table })
  const app = await serve(store, TIMING)
  app.receiver.on('notification.responded', async (event) => {
    await pool.query(`INSERT INTO ${effects} (event_id) VALUES ($1)`, [event.data.event_id])
  })
  return { url: app.url, effects: count, close: app.close }
}

interface Sent {
  id: string
  delivery: Delivery
}
interface Answer {
  id: string
  status: number
}

/** Sends deliveries `IN_FLIGHT` at a time, as the service does under load, calling `answered` after each. */
async function send(url: string, deliveries: readonly Sent[], answered: () => void = () => {}): Promise<Answer[]> {
  const answers: Answer[] = []
  let next = 0
  const worker = async () => {
    for (let sent = deliveries[next++]; sent; sent = deliveries[next++]) {
      answers.push({ id: sent.id, status: (await post(url, sent.delivery)).status })
      answered()
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  return answers
}

const ok = (status: number) => status >= 200 && status < 300
const retryable = (status: number) => status === 409 || status >= 500

/** The service's retries: every delivery not yet answered 2xx is sent again, a Retry-After apart. */
async function retryUntilAcknowledged(url: string, deliveries: readonly Sent[], answers: Answer[]) {
  let pending = deliveries.filter((sent) => !answers.some((answer) => answer.id === sent.id && ok(answer.status)))
  for (let round = 0; pending.length > 0 && round < RETRY_ROUNDS; round++) {
    if (round > 0) await sleep(RETRY_AFTER_MS)
    const retried = await send(url, pending)
    answers.push(...retried)
    pending = pending.filter((sent) => !retried.some((answer) => answer.id === sent.id && ok(answer.status)))
  }
  return pending
}

describe('a Postgres server restarted mid-load', () => {
  it('answers retryably while it is down, acknowledges only committed writes, and the retries apply each once', async () => {
    const db = server as PrivatePostgres
    const admin = connect()
    const subjects = { inbox: await inboxSubject(admin), store: await storeSubject(admin) }
    const ids = Array.from({ length: DELIVERIES }, () => randomUUID())
    const deliveries = await Promise.all(ids.map(async (id) => ({ id, delivery: await signed(responded(id)) })))
    const firstPart = deliveries.slice(0, DELIVERIES - 2 * DURING_OUTAGE)
    const whileDown = deliveries.slice(firstPart.length, firstPart.length + DURING_OUTAGE)
    const afterStart = deliveries.slice(firstPart.length + DURING_OUTAGE)
    try {
      // The crash comes while both receivers have deliveries in flight, and they keep sending.
      let answered = 0
      let stopped: Promise<void> | undefined
      const onAnswer = () => {
        if (++answered === 2 * STOP_AFTER) stopped = db.stop('immediate')
      }
      const [inboxFirst, storeFirst] = await Promise.all([
        send(subjects.inbox.url, firstPart, onAnswer),
        send(subjects.store.url, firstPart, onAnswer),
      ])
      await stopped
      const [inboxDown, storeDown] = await Promise.all([
        send(subjects.inbox.url, whileDown),
        send(subjects.store.url, whileDown),
      ])
      await db.start()
      const [inboxAfter, storeAfter] = await Promise.all([
        send(subjects.inbox.url, afterStart),
        send(subjects.store.url, afterStart),
      ])

      // While the server is down nothing is acknowledged; every answer tells the service to retry.
      for (const answer of [...inboxDown, ...storeDown]) expect(answer.status, answer.id).toSatisfy(retryable)
      const answers = {
        inbox: [...inboxFirst, ...inboxDown, ...inboxAfter],
        store: [...storeFirst, ...storeDown, ...storeAfter],
      }
      for (const [name, subject] of Object.entries(subjects) as [keyof typeof subjects, Subject][]) {
        const load = answers[name]
        for (const answer of load)
          expect(answer.status, `${name} ${answer.id}`).toSatisfy((s: number) => ok(s) || retryable(s))
        // Every delivery acknowledged under load has its write in the database.
        const afterLoad = await subject.effects(ids)
        for (const answer of load.filter((a) => ok(a.status)))
          expect(afterLoad.get(answer.id), `${name} ${answer.id}`).toBeGreaterThanOrEqual(1)

        expect(await retryUntilAcknowledged(subject.url, deliveries, load), name).toEqual([])
        const final = await subject.effects(ids)
        for (const id of ids) {
          if (name === 'inbox') expect(final.get(id), `inbox ${id}`).toBe(1)
          else expect(final.get(id), `store ${id}`).toBeGreaterThanOrEqual(1)
        }
      }
    } finally {
      await subjects.inbox.close()
      await subjects.store.close()
    }
  }, 45_000)
})
