// A receiver process on the inbox killed with SIGKILL at each point of a delivery, several times:
// the simulator of the service sends a user's answer to a notification, retries (first after 100 ms,
// then after the spec's 1 s, 5 s, 30 s), and its retry reaches the receiver started behind the same
// address. The replacement is a process started ahead, once, and put back in place as soon as the
// dying one exits, so a retry waits for no process to start: the spec's first 1 s delay shortened to 100 ms takes
// nothing from what is tested (that some retry reaches the new process), and one that comes too
// early, before the switch, only adds a `network_error` attempt before the 1 s one.
// Whatever the point, the handler's effect is in the database exactly once, and the delivery ends
// acknowledged: handled by the new process, or, once the first had committed, answered as a
// duplicate from what it committed.
import { createClient, type RinghookClient } from '@ringhook/client'
import { createSimulator, type Simulator } from '@ringhook/simulator'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOW_MS, SECRET } from '../support/events.js'
import { type Front, startFront } from './support/front.js'
import type { KillPoint } from './support/inbox-instance.js'
import { type ChildInstance, startChild } from './support/instances.js'
import { connectPostgres, dropTable, freshTable, uniqueTable } from './support/postgres.js'

// Each round kills at the same point again: two show it holds twice over, not once by chance.
const ROUNDS = 2
let pool: pg.Pool
let table: string
const effects = uniqueTable('effects')
let front: Front
let sim: Simulator
let client: RinghookClient
let appId: string
let userAppId: string
/** Every receiver process started, stopped after the tests whatever happened. */
const started: ChildInstance[] = []
/** The process behind the front now. */
let serving: ChildInstance | undefined
/** The process that is never killed: it takes over from each one that dies. */
let survivor: ChildInstance

/** Starts a receiver process; with `killAt`, it dies there in its first delivery. */
async function start(killAt?: KillPoint): Promise<ChildInstance> {
  const instance = await startChild(table, effects, killAt ? { killAt } : {})
  started.push(instance)
  return instance
}

/** Puts a process behind the front, and stops the one that was there (unless it is the survivor). */
async function serve(instance: ChildInstance): Promise<void> {
  const previous = serving
  serving = instance
  front.use(instance)
  if (previous !== survivor) await previous?.stop()
}

beforeAll(async () => {
  pool = await connectPostgres()
  table = await freshTable(pool, 'killed')
  // No unique constraint: a handler that ran twice leaves two rows.
  await pool.query(`CREATE TABLE ${effects} (event_id text NOT NULL, pid int NOT NULL)`)
  front = await startFront()
  // The spec's acknowledgement limit, unscaled; its clock the receivers' fixed one.
  sim = await createSimulator({ clock: () => NOW_MS, retryDelaysMs: [100, 1000, 5000, 30_000] })
  const user = sim.users.create({ name: 'Ada' })
  const key = sim.keys.create({ user_id: user.id })
  const app = sim.apps.create({
    key_id: key.id,
    type: 'preferred_notification',
    webhook_url: front.url,
    secret: SECRET,
  })
  client = createClient({ apiKey: key.token, baseUrl: sim.url, retry: false })
  survivor = await start()
  await serve(survivor)
  const { install } = await sim.install(app.app_id, user.id, { activate: true, wait: true })
  appId = app.app_id
  userAppId = install.user_app_id
})

afterAll(async () => {
  await sim?.close()
  await Promise.all(started.map((instance) => instance.stop()))
  await front?.close()
  await dropTable(pool, table)
  await dropTable(pool, effects)
  await pool.end()
})

/** The processes that wrote the event's effect, one entry a row. */
const writers = async (id: string): Promise<number[]> => {
  const { rows } = await pool.query(`SELECT pid FROM ${effects} WHERE event_id = $1`, [id])
  return rows.map((row: { pid: number }) => row.pid)
}

/** A question to the user, and the user's answer: the `notification.responded` webhook. */
async function answeredQuestion() {
  const { event_id } = await client.vibes.trigger({
    app_id: appId,
    user_app_id: userAppId,
    sequence: [{ type: 'tap' }],
    response_config: { type: 'yes_no_dismiss' },
  })
  if (!event_id) throw new Error('a question has an event_id')
  const { delivery } = await sim.answer(event_id, 'yes')
  if (!delivery) throw new Error('the answer was not sent to the app')
  return { id: event_id, delivery }
}

describe.each<KillPoint>(['claim', 'write', 'commit'])('a receiver killed after the %s', (point) => {
  it(`applies the effect exactly once and loses no delivery, ${ROUNDS} times over`, { timeout: 60_000 }, async () => {
    // Started together ahead of their rounds: on a busy machine a process takes seconds to start.
    const doomedOnes = await Promise.all(Array.from({ length: ROUNDS }, () => start(point)))
    for (const doomed of doomedOnes) {
      await serve(doomed)
      const { id, delivery } = await answeredQuestion()
      // The process dies mid-delivery: the connection drops without an answer.
      await doomed.exited
      expect(doomed.child.signalCode).toBe('SIGKILL')
      // Committed only when it died after the commit.
      expect(await writers(id)).toEqual(point === 'commit' ? [doomed.child.pid] : [])

      const replacement = survivor
      await serve(replacement)
      await sim.idle()
      const settled = sim.log.deliveries().find((each) => each.id === delivery.id)
      expect(settled?.status).toBe('delivered')
      const attempts = settled?.attempts ?? []
      expect(attempts[0]?.outcome).toBe('network_error')
      expect(attempts.at(-1)).toMatchObject({ status: 200, reply: '{"ok":true}' })
      // Written once: by the process that died after its commit, otherwise by the new one.
      expect(await writers(id)).toEqual([point === 'commit' ? doomed.child.pid : replacement.child.pid])
    }
    const report = sim.report()
    expect(report.undelivered).toEqual([])
    expect(report.counts.failed).toBe(0)
  })
})
