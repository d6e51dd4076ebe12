// Users' states on DynamoDB (dynalite): the ordering rules of @ringhook/users as its Redis and
// Postgres stores keep them, across several clients as several Lambda execution environments.
import { randomUUID } from 'node:crypto'
import { dynamoDbUserStore } from '@ringhook/dynamodb'
import { createUserStates, type LifecycleEvent, type LifecycleEventName, type UserStates } from '@ringhook/users'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalDynamo, PATIENT, startDynalite } from './support/dynalite.js'

let dynamo: LocalDynamo

beforeAll(async () => {
  dynamo = await startDynalite()
})
afterAll(() => dynamo?.close())

/** States on a client of their own, under `prefix`: one execution environment. */
const environment = (prefix: string): UserStates =>
  createUserStates({ store: dynamoDbUserStore({ client: dynamo.client(), table: dynamo.table, prefix, ...PATIENT }) })

const event = (name: LifecycleEventName, user: string, timestamp: string): LifecycleEvent =>
  ({ event: name, user_app_id: user, app_id: 'app_demo', timestamp, data: {} }) as LifecycleEvent

const at = (ms: number) => new Date(Date.UTC(2026, 10, 28, 10, 0, 0) + ms).toISOString()

describe('users’ states on DynamoDB', () => {
  it('keeps the latest timestamp, whatever order the events arrive in', async () => {
    const states = environment(`${randomUUID()}:`)
    const user = randomUUID()
    expect((await states.apply(event('app.activated', user, at(300)))).verdict).toBe('applied')
    expect((await states.apply(event('app.installed', user, at(100)))).verdict).toBe('stale')
    expect((await states.apply(event('control.passive', user, at(200)))).verdict).toBe('stale')
    expect((await states.apply(event('app.deactivated', user, at(400)))).verdict).toBe('applied')
    expect(await states.get(user)).toMatchObject({ state: 'inactive', since: new Date(at(400)), source: 'webhook' })
  })

  it('answers the same event twice as a duplicate, and two events of one timestamp as uncertain', async () => {
    const states = environment(`${randomUUID()}:`)
    const user = randomUUID()
    await states.apply(event('app.activated', user, at(500)))
    expect((await states.apply(event('app.activated', user, at(500)))).verdict).toBe('duplicate')
    const tie = await states.apply(event('control.passive', user, at(500)))
    // Neither can be put before the other: the later in the spec's order is kept, marked as a guess.
    expect(tie.verdict).toBe('uncertain')
    expect(await states.get(user)).toMatchObject({ state: 'passive', uncertain: true })
    // An event past the tie settles it.
    expect((await states.apply(event('app.activated', user, at(501)))).verdict).toBe('applied')
    expect(await states.get(user)).toMatchObject({ state: 'active', uncertain: false })
  })

  it('keeps an uninstall as a tombstone: older events stay stale, a later install starts again', async () => {
    const states = environment(`${randomUUID()}:`)
    const user = randomUUID()
    await states.apply(event('app.activated', user, at(100)))
    await states.apply(event('app.uninstalled', user, at(200)))
    expect(await states.get(user)).toMatchObject({ state: 'uninstalled' })
    expect(await states.count()).toEqual({ active: 0, passive: 0, inactive: 0 })
    // A retry of an older activation, delivered after the uninstall, does not bring the user back.
    expect((await states.apply(event('app.activated', user, at(150)))).verdict).toBe('stale')
    expect(await states.get(user)).toMatchObject({ state: 'uninstalled' })
    // Reinstalled under the same user_app_id.
    expect((await states.apply(event('app.installed', user, at(300)))).verdict).toBe('applied')
    expect((await states.apply(event('app.activated', user, at(400)))).verdict).toBe('applied')
    expect(await states.get(user)).toMatchObject({ state: 'active' })
    expect(await states.count()).toEqual({ active: 1, passive: 0, inactive: 0 })
  })

  it('counts and lists every user in its state, a page at a time, uninstalled ones apart', async () => {
    const prefix = `${randomUUID()}:`
    const states = environment(prefix)
    const names: LifecycleEventName[] = ['app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled']
    const expected = new Map<string, string[]>(names.map((name) => [name, []]))
    await Promise.all(
      Array.from({ length: 23 }, (_, i) => {
        const name = names[i % names.length] as LifecycleEventName
        const user = `user-${i}-${randomUUID()}`
        expected.get(name)?.push(user)
        return states.apply(event(name, user, at(i)))
      }),
    )
    expect(await states.count()).toEqual({ active: 6, passive: 6, inactive: 6 })
    const listed = async (state: 'active' | 'passive' | 'inactive' | 'uninstalled') => {
      const users: string[] = []
      for await (const view of states.inState(state, { pageSize: 4 })) users.push(view.userAppId)
      return users.sort()
    }
    expect(await listed('active')).toEqual(expected.get('app.activated')?.sort())
    expect(await listed('passive')).toEqual(expected.get('control.passive')?.sort())
    expect(await listed('inactive')).toEqual(expected.get('app.deactivated')?.sort())
    expect(await listed('uninstalled')).toEqual(expected.get('app.uninstalled')?.sort())
    // Another prefix is another app: it sees none of these.
    expect(await environment(`${randomUUID()}:`).count()).toEqual({ active: 0, passive: 0, inactive: 0 })
  })

  it('applies one event delivered to many environments at once exactly once', async () => {
    const prefix = `${randomUUID()}:`
    const environments = Array.from({ length: 4 }, () => environment(prefix))
    const user = randomUUID()
    const copies = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        environments[i % environments.length]?.apply(event('app.activated', user, at(700))),
      ),
    )
    expect(copies.filter((change) => change?.verdict === 'applied')).toHaveLength(1)
    expect(copies.filter((change) => change?.verdict === 'duplicate')).toHaveLength(15)
  })

  it('agrees on the latest of many events applied at once, in any order, by several environments', async () => {
    const prefix = `${randomUUID()}:`
    const environments = Array.from({ length: 3 }, () => environment(prefix))
    const user = randomUUID()
    const names: LifecycleEventName[] = ['app.activated', 'control.passive', 'app.deactivated']
    const events = Array.from({ length: 30 }, (_, i) => event(names[i % 3] as LifecycleEventName, user, at(i * 10)))
    const shuffled = [...events].sort(() => Math.random() - 0.5)
    const changes = await Promise.all(shuffled.map((e, i) => environments[i % 3]?.apply(e)))
    // The latest (i = 29: app.deactivated) is applied wherever it landed in the order.
    expect(await environments[0]?.get(user)).toMatchObject({ state: 'inactive', since: new Date(at(290)) })
    const latest = changes[shuffled.indexOf(events[29] as LifecycleEvent)]
    expect(latest?.verdict).toBe('applied')
    // Each write was made on the stamp it read: no applied event ever replaced a later one.
    for (const change of changes) {
      if (change?.verdict === 'applied' && change.before) expect(change.after.since >= change.before.since).toBe(true)
    }
  })

  it('stores a user id of 2 KiB, with a NUL or any unicode, and tells such ids apart', async () => {
    const states = environment(`${randomUUID()}:`)
    const long = `${'ü'.repeat(1024)}${randomUUID()}`
    const ids = [long, `${long}x`, `nul\u0000${randomUUID()}`, `émoji 🛎️ ${randomUUID()}`, `lone \ud800 ${randomUUID()}`]
    for (const [i, id] of ids.entries()) await states.apply(event('app.activated', id, at(i)))
    for (const [i, id] of ids.entries())
      expect(await states.get(id)).toMatchObject({ userAppId: id, since: new Date(at(i)) })
    const listed: string[] = []
    for await (const view of states.inState('active')) listed.push(view.userAppId)
    expect(listed.sort()).toEqual([...ids].sort())
  })
})
