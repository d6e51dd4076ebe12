// The refresh budget: whatever users become uncertain, refreshes never spend more than `share` of the
// key's 100 requests in any 60 s, and every uncertain user is refreshed in the end. Time is vitest's
// fake clock (the limiter sleeps on it); the API is a stand-in that records when it was called.
import { NotFoundError } from '@ringhook/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UsersClient } from './refresher.js'
import { createUserStates, type LifecycleEvent } from './user-states.js'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-28T10:00:00Z') })
})
afterEach(() => {
  vi.useRealTimers()
})

/** An API whose 40 users are all inactive; it records when each request came. */
function recordingApi() {
  const calls: number[] = []
  const client: UsersClient = {
    users: {
      list: async () => {
        calls.push(Date.now())
        const users = Array.from({ length: 40 }, (_, i) => ({
          user_app_id: `user-${i}`,
          state: 'inactive' as const,
          installed_at: '2026-11-28T09:00:00Z',
        }))
        return { users }
      },
      get: async (_appId, userAppId) => {
        calls.push(Date.now())
        return {
          user_app_id: userAppId,
          app_id: 'app_1',
          state: 'inactive',
          installed_at: '2026-11-28T09:00:00Z',
          permissions: { vibes: true, gestures: true },
        }
      },
    },
  }
  return { client, calls }
}

/** Two events of one user in the same second: a tie the states cannot order. */
function tie(user: string, at: number): LifecycleEvent[] {
  const timestamp = new Date(at).toISOString().replace(/\.\d+Z$/, 'Z')
  const base = { user_app_id: user, app_id: 'app_1', timestamp, data: {} }
  return [
    { ...base, event: 'app.activated' },
    { ...base, event: 'app.deactivated' },
  ] as LifecycleEvent[]
}

describe('the refresh budget', () => {
  it('spends at most its share of the key’s 100 requests in any 60 s, and refreshes every uncertain user', async () => {
    const { client, calls } = recordingApi()
    const users = createUserStates({ client, appId: 'app_1', refresh: { share: 0.05, listAbove: 100 } })
    // 40 users made uncertain, one every 3 s for two minutes.
    for (let i = 0; i < 40; i++) {
      for (const event of tie(`user-${i}`, Date.now())) await users.apply(event)
      await vi.advanceTimersByTimeAsync(3000)
    }
    const settled = users.settled()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    await settled

    for (const start of calls)
      expect(calls.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(5)
    for (let i = 0; i < 40; i++)
      expect(await users.get(`user-${i}`)).toMatchObject({ state: 'inactive', source: 'api', uncertain: false })
    // Per user while the share lasts, by one list request once more wait than it has left.
    expect(calls.length).toBeLessThan(40)
  })

  it('counts every user a refresh changed, and uninstalls those the API no longer lists', async () => {
    const { client } = recordingApi()
    const users = createUserStates({ client, appId: 'app_1' })
    const at = new Date(Date.now() - 60_000).toISOString()
    for (const user of ['user-0', 'user-1', 'user-39', 'user-40', 'user-41'])
      await users.apply({ event: 'app.activated', user_app_id: user, app_id: 'app_1', timestamp: at, data: {} })
    // 40 listed users, all inactive: 37 new here, 3 were active; 2 unlisted, active here, now uninstalled.
    expect(await users.refresh()).toMatchObject({ listed: 40, changed: 42 })
    expect(await users.count()).toEqual({ active: 0, passive: 0, inactive: 40 })
    expect(await users.get('user-41')).toMatchObject({ state: 'uninstalled', source: 'api' })
  })
})

describe('a user the API does not know', () => {
  it('is uninstalled by its refresh: asked once, never retried, no error reported', async () => {
    const asked: number[] = []
    const errors: unknown[] = []
    // The client's answer to a 404 of GET /v1/apps/:app_id/users/:user_app_id.
    const client: UsersClient = {
      users: {
        list: async () => ({ users: [] }),
        get: async (appId, userAppId) => {
          asked.push(Date.now())
          throw new NotFoundError({
            status: 404,
            code: 'not_found',
            message: `User "${userAppId}" of app "${appId}" was not found.`,
            requestId: undefined,
            request: { method: 'GET', path: `/v1/apps/${appId}/users/${userAppId}` },
            body: undefined,
          })
        },
      },
    }
    const users = createUserStates({ client, appId: 'app_1', onError: (error) => errors.push(error) })
    for (const event of tie('gone', Date.now())) await users.apply(event)
    await vi.advanceTimersByTimeAsync(60_000)

    expect(errors).toEqual([])
    expect(asked).toHaveLength(1)
    expect(await users.get('gone')).toMatchObject({ state: 'uninstalled', source: 'api', uncertain: false })
  })
})

describe('a refresh that fails for another reason', () => {
  it('changes nothing, reports the error, and asks again 5 s later', async () => {
    const asked: number[] = []
    const errors: unknown[] = []
    let failing = true
    const { client: answering } = recordingApi()
    const client: UsersClient = {
      users: {
        list: answering.users.list,
        get: async (appId, userAppId) => {
          asked.push(Date.now())
          if (failing) throw new Error('the service answered 503')
          return answering.users.get(appId, userAppId)
        },
      },
    }
    // The whole share (100 a minute, 0.6 s apart): the retry's own delay is what shows.
    const users = createUserStates({
      client,
      appId: 'app_1',
      refresh: { share: 1 },
      onError: (error) => errors.push(error),
    })
    for (const event of tie('user-1', Date.now())) await users.apply(event)
    while (asked.length === 0) await vi.advanceTimersByTimeAsync(100)

    expect(errors).toEqual([new Error('the service answered 503')])
    expect(await users.get('user-1')).toMatchObject({ uncertain: true, source: 'webhook' })
    failing = false
    await vi.advanceTimersByTimeAsync(4900)
    expect(asked).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(200)
    expect(asked.length).toBe(2)
    expect((asked[1] as number) - (asked[0] as number)).toBeGreaterThanOrEqual(5000)
    expect(await users.get('user-1')).toMatchObject({ state: 'inactive', source: 'api', uncertain: false })
  })
})
