// Users' states on DynamoDB (dynalite) beyond the users' state store contract: a tie settled by a later
// event, copies of one event from many Lambda execution environments at once, odd user ids.
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
