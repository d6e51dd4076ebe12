// createUserStates' own rules, beside the ordering (order.test.ts) and the refresh budget
// (refresher.test.ts): what a lifecycle handler learns, the options it refuses, the schedule that
// start() keeps until close(), and uncertain users refreshed one by one or by one list request.
import { createReceiver, RinghookConfigError, silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { UsersClient } from './refresher.js'
import { createUserStates, type LifecycleEvent, type StateChange } from './user-states.js'

afterEach(() => {
  vi.useRealTimers()
})

const secret = 'whsec_user_states'

const event = (name: string, user: string, timestamp: string) =>
  ({ event: name, user_app_id: user, app_id: 'app_1', timestamp, data: {} }) as LifecycleEvent

/** An API listing `listed` users, inactive; it counts the requests of each kind. */
function countingApi(listed: string[] = []) {
  const calls = { list: 0, get: 0 }
  const client: UsersClient = {
    users: {
      list: async () => {
        calls.list++
        return {
          users: listed.map((id) => ({
            user_app_id: id,
            state: 'inactive' as const,
            installed_at: '2026-11-28T09:00:00Z',
          })),
        }
      },
      get: async (_appId, userAppId) => {
        calls.get++
        return {
          user_app_id: userAppId,
          app_id: 'app_1',
          state: 'inactive' as const,
          installed_at: '2026-11-28T09:00:00Z',
          permissions: { vibes: true, gestures: true },
        }
      },
    },
  }
  return { client, calls }
}

describe('attached to a receiver', () => {
  it('applies each lifecycle delivery, then tells onChange what it did, a stale event included', async () => {
    const receiver = createReceiver({ secret, logger: silentLogger })
    const changes: StateChange[] = []
    const users = createUserStates()
    expect(users.attach(receiver, (change) => void changes.push(change))).toBe(users)
    const deliver = async (payload: LifecycleEvent) => {
      const body = JSON.stringify(payload)
      const { headers } = await signWebhook({ secret, body })
      return (await receiver.handle({ method: 'POST', headers, rawBody: body })).status
    }
    expect(await deliver(event('app.activated', 'u1', '2026-11-28T10:00:02Z'))).toBe(200)
    // Older than what is kept: acknowledged, not applied.
    expect(await deliver(event('app.deactivated', 'u1', '2026-11-28T10:00:01Z'))).toBe(200)

    expect(changes.map(({ before, after, verdict, stale }) => [before?.state, after.state, verdict, stale])).toEqual([
      [undefined, 'active', 'applied', false],
      ['active', 'active', 'stale', true],
    ])
    expect(await users.get('u1')).toMatchObject({ state: 'active', source: 'webhook' })
  })
})

describe('createUserStates refuses', () => {
  it('a client without its app, a schedule under a second, an unreadable timestamp, the API without a client', async () => {
    const { client } = countingApi()
    expect(() => createUserStates({ client })).toThrow(
      new RinghookConfigError('createUserStates: `client` needs `appId`, the app whose users to list'),
    )
    expect(() => createUserStates({ client, appId: 'app_1', refresh: { everyMs: 999 } })).toThrow(
      'createUserStates: refresh.everyMs must be from 1000 to 2147483647 (24.8 days), got 999',
    )
    createUserStates({ client, appId: 'app_1', refresh: { everyMs: 1000 } }).close()

    const users = createUserStates()
    await expect(users.apply(event('app.activated', 'u1', 'yesterday'))).rejects.toThrow(
      '@ringhook/users: timestamp "yesterday" is not a time a state can keep exactly (years 0000 to 6428)',
    )
    for (const [what, call] of [
      ['start()', () => users.start()],
      ['refresh()', () => users.refresh()],
      ['refreshUser()', () => users.refreshUser('u1')],
    ] as const)
      await expect((async () => call())()).rejects.toThrow(
        `@ringhook/users: ${what} needs the \`client\` and \`appId\` options`,
      )
    // Without a client, nothing waits for a refresh and nothing is to close.
    await users.settled()
    users.close()
  })
})

describe('with a client', () => {
  it('loads every user at start, again every everyMs, and stops at close()', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-28T10:00:00Z') })
    const { client, calls } = countingApi(['u1', 'u2'])
    const users = createUserStates({ client, appId: 'app_1', refresh: { everyMs: 60_000 } })
    expect(await users.start()).toMatchObject({ listed: 2, changed: 2 })
    await vi.advanceTimersByTimeAsync(125_000)
    expect(calls.list).toBe(3)
    users.close()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(calls.list).toBe(3)
  })

  it('refreshes up to 5 uncertain users one by one, and more with one list request', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-28T10:00:00Z') })
    const tie = async (users: ReturnType<typeof createUserStates>, user: string) => {
      const at = new Date(Date.now()).toISOString().replace(/\.\d+Z$/, 'Z')
      for (const name of ['app.activated', 'app.deactivated']) await users.apply(event(name, user, at))
    }
    const few = countingApi()
    const fewUsers = createUserStates({ client: few.client, appId: 'app_1' })
    for (let i = 0; i < 5; i++) await tie(fewUsers, `u${i}`)
    const fewSettled = fewUsers.settled()
    await vi.advanceTimersByTimeAsync(60_000)
    await fewSettled
    expect(few.calls).toEqual({ list: 0, get: 5 })

    const many = countingApi()
    const manyUsers = createUserStates({ client: many.client, appId: 'app_1' })
    for (let i = 0; i < 6; i++) await tie(manyUsers, `u${i}`)
    const manySettled = manyUsers.settled()
    await vi.advanceTimersByTimeAsync(60_000)
    await manySettled
    expect(many.calls).toEqual({ list: 1, get: 0 })
    expect(await manyUsers.get('u5')).toMatchObject({ state: 'uninstalled', source: 'api', uncertain: false })
  })
})
