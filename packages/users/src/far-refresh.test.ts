// A refresh due past what a Node timer holds (2^31-1 ms, about 24.8 days): a user made uncertain by
// a tie far in the future waits for it on real timers, each at most that long, and nothing spins.
// Real time: a timer that overflows fires after 1 ms, which only the real clock shows.
import { createHook } from 'node:async_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_TIMER_MS } from './refresher.js'
import { createUserStates, type LifecycleEvent, type UserStates } from './user-states.js'

let users: UserStates | undefined
afterEach(() => users?.close())

describe('a refresh due in year 6428 (or any time past 24.8 days)', () => {
  it('is waited for by one timer at a time, with no overflow and no request', async () => {
    const requests: string[] = []
    users = createUserStates({
      client: {
        users: {
          list: async () => {
            requests.push('list')
            return { users: [] }
          },
          get: async (_appId, userAppId) => {
            requests.push(userAppId)
            throw new Error('not expected')
          },
        },
      },
      appId: 'app_far',
    })
    const base = { user_app_id: 'u_far', app_id: 'app_far', data: {} }
    const events = [
      { ...base, event: 'app.activated', timestamp: '6428-12-31T23:59:58Z' },
      { ...base, event: 'app.activated', timestamp: '6428-12-31T23:59:59.998Z' },
      { ...base, event: 'app.deactivated', timestamp: '6428-12-31T23:59:59.998Z' },
    ] as LifecycleEvent[]

    const warnings: string[] = []
    const onWarning = (warning: Error) => void warnings.push(warning.name)
    process.on('warning', onWarning)
    let timers = 0
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'Timeout') timers++
      },
    }).enable()
    try {
      for (const event of events) await users.apply(event)
      // The tie is kept as it is (activated and deactivated in one instant: inactive, a guess), exactly.
      expect(await users.get('u_far')).toEqual({
        userAppId: 'u_far',
        state: 'inactive',
        since: new Date('6428-12-31T23:59:59.998Z'),
        source: 'webhook',
        uncertain: true,
      })
      await sleep(300)
    } finally {
      hook.disable()
      process.off('warning', onWarning)
    }
    // The tight loop armed a 1 ms timer hundreds of times in 300 ms, with a warning each time.
    expect(warnings).toEqual([])
    expect(timers).toBeLessThanOrEqual(3) // this test's own sleep, and the refresher's one wait
    expect(requests).toEqual([])
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1)
  })

  it('refuses a schedule longer than a timer holds, and a time a state cannot keep exactly', async () => {
    const client = { users: { list: async () => ({ users: [] }), get: async () => Promise.reject(new Error('no')) } }
    expect(() => createUserStates({ client, appId: 'app_far', refresh: { everyMs: 2 ** 31 } })).toThrow(
      'refresh.everyMs must be from 1000 to 2147483647',
    )
    users = createUserStates()
    const base = { user_app_id: 'u_9999', app_id: 'app_far', data: {} }
    await users.apply({ ...base, event: 'app.activated', timestamp: '2026-11-28T10:00:00Z' } as LifecycleEvent)
    // Year 9999 and year 100000 are past 2^47 ms: refused, the state left as it was, not rounded into another.
    for (const timestamp of ['9999-12-31T23:59:59.998Z', '+100000-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z'])
      await expect(users.apply({ ...base, event: 'app.deactivated', timestamp } as LifecycleEvent)).rejects.toThrow(
        `timestamp "${timestamp}" is not a time a state can keep exactly`,
      )
    expect(await users.get('u_9999')).toMatchObject({ state: 'active', since: new Date('2026-11-28T10:00:00Z') })
  })
})
