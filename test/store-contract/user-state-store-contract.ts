// The contract every users' state store keeps (`UserStore` of @ringhook/users): the rules a user's
// state relies on, whichever store holds it. Stamps are built by hand on a fixed base time, so no
// test waits for the clock.
import { randomUUID } from 'node:crypto'
import type { LifecycleEvent, Stamp, StoreResult, UserStatus, UserStore } from '@ringhook/users'
import { createUserStates, DEFAULT_MARGIN_MS } from '@ringhook/users'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** One open backend: stores on it, and how to let it go. */
export interface UserStoreHarness {
  /** `count` handles on one new, empty store, as that many instances would each hold one. */
  instances(count: number): Promise<UserStore<unknown>[]>
  /**
   * For a store that writes in its caller's transaction (`apply`'s `via`): runs `work` inside one of
   * the backend's transactions, then commits it or rolls it back. Absent for stores without one.
   */
  transaction?(work: (via: unknown) => Promise<void>, end: 'commit' | 'rollback'): Promise<void>
  /** With `transaction`: resolves once an instance's call waits for another's transaction to end. */
  untilWaiting?(): Promise<void>
  /** Releases the backend's connections and drops what it created. */
  close(): Promise<void>
}

/** A users' state store to run the contract on. */
export interface UserStoreKind {
  name: string
  open(): Promise<UserStoreHarness>
}

// The causes a store keeps (`CAUSE` in packages/users/src/states.ts): lifecycle events, then the API's.
const INSTALLED = 0
const ACTIVATED = 1
const PASSIVE = 2
const DEACTIVATED = 3
const UNINSTALLED = 4
const API_ACTIVE = 5

const BASE = Date.UTC(2027, 0, 15, 8)
/** What a webhook of `cause`, at `ms` past the base time (a precise timestamp), is to a store. */
const seen = (cause: Stamp['cause'], ms: number): Stamp => ({ at: BASE + ms, coarse: false, cause, uncertain: false })
const settled = (stamp: Stamp): Stamp => ({ ...stamp, uncertain: false })

/** Every user a store lists in `status`, its pages flattened. */
async function listed(store: UserStore<unknown>, status: UserStatus, pageSize = 100): Promise<string[]> {
  const users: string[] = []
  for await (const page of store.pages(status, pageSize)) for (const [user] of page) users.push(user)
  return users.sort()
}

/** Shuffles in place, the same way every run (a fixed seed). */
function shuffle<T>(items: T[]): void {
  let seed = 55
  for (let i = items.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648
    const j = seed % (i + 1)
    ;[items[i], items[j]] = [items[j] as T, items[i] as T]
  }
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < items.length; i += width)
    await Promise.all(items.slice(i, i + width).map((item, j) => work(item, i + j)))
}

/** Defines the contract's tests for one kind of users' state store, inside the caller's `describe`. */
export function userStateStoreContract(kind: UserStoreKind): void {
  let harness: UserStoreHarness
  beforeAll(async () => {
    harness = await kind.open()
  })
  afterAll(async () => {
    await harness?.close()
  })
  const fresh = async () => (await harness.instances(1))[0] as UserStore<unknown>

  it('keeps an uninstalled user as a tombstone: a late, older event does not bring it back', async () => {
    const store = await fresh()
    const user = randomUUID()
    for (const [cause, ms] of [
      [INSTALLED, 0],
      [ACTIVATED, 100],
      [UNINSTALLED, 300],
    ] as const)
      await store.apply(user, seen(cause, ms), 0)
    const late = await store.apply(user, seen(ACTIVATED, 200), 0)
    expect(late).toEqual({ verdict: 'stale', before: seen(UNINSTALLED, 300), after: seen(UNINSTALLED, 300) })
    expect(await store.get(user)).toEqual(seen(UNINSTALLED, 300))
    expect(await store.count()).toEqual({ active: 0, passive: 0, inactive: 0 })
    expect(await listed(store, 'uninstalled')).toEqual([user])
    expect(await listed(store, 'active')).toEqual([])
  })

  it('reinstalls an uninstalled user on a newer install', async () => {
    const store = await fresh()
    const user = randomUUID()
    await store.apply(user, seen(INSTALLED, 0), 0)
    await store.apply(user, seen(UNINSTALLED, 100), 0)
    const reinstall = await store.apply(user, seen(INSTALLED, 200), 0)
    expect(reinstall).toEqual({ verdict: 'applied', before: seen(UNINSTALLED, 100), after: seen(INSTALLED, 200) })
    expect(await store.get(user)).toEqual(seen(INSTALLED, 200))
    expect(await store.count()).toEqual({ active: 0, passive: 0, inactive: 1 })
    expect(await listed(store, 'inactive')).toEqual([user])
    expect(await listed(store, 'uninstalled')).toEqual([])
  })

  it('counts and lists a user once, in its current state, whatever states it went through', async () => {
    const store = await fresh()
    const [active, passive, inactive, gone] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()]
    const walks: Array<[string, Stamp['cause'][]]> = [
      [active, [INSTALLED, ACTIVATED, PASSIVE, DEACTIVATED, ACTIVATED]],
      [passive, [INSTALLED, ACTIVATED, PASSIVE]],
      [inactive, [INSTALLED, ACTIVATED, PASSIVE, ACTIVATED, DEACTIVATED]],
      [gone, [INSTALLED, ACTIVATED, PASSIVE, UNINSTALLED]],
    ]
    for (const [user, causes] of walks)
      for (const [step, cause] of causes.entries()) await store.apply(user, seen(cause, step * 100), 0)
    expect(await store.count()).toEqual({ active: 1, passive: 1, inactive: 1 })
    expect(await listed(store, 'active')).toEqual([active])
    expect(await listed(store, 'passive')).toEqual([passive])
    expect(await listed(store, 'inactive')).toEqual([inactive])
    expect(await listed(store, 'uninstalled')).toEqual([gone])
  })

  it('answers the same event twice as a duplicate, and two events of one whole second as uncertain', async () => {
    const store = await fresh()
    const [again, tied] = [randomUUID(), randomUUID()]
    await store.apply(again, seen(ACTIVATED, 100), 0)
    expect(await store.apply(again, seen(ACTIVATED, 100), 0)).toEqual({
      verdict: 'duplicate',
      before: seen(ACTIVATED, 100),
      after: seen(ACTIVATED, 100),
    })
    // `...T08:00:01Z` and `...T08:00:01.400Z`: the whole second holds the other, their order unknown.
    const whole: Stamp = { at: BASE + 1000, coarse: true, cause: PASSIVE, uncertain: false }
    await store.apply(tied, seen(DEACTIVATED, 1400), 0)
    const tie = await store.apply(tied, whole, 0)
    // Kept meanwhile: the later event in the spec's order, over the wider time, marked for a refresh.
    const guess: Stamp = { at: BASE + 1000, coarse: true, cause: DEACTIVATED, uncertain: true }
    expect(tie).toEqual({ verdict: 'uncertain', before: seen(DEACTIVATED, 1400), after: guess })
    expect(await store.get(tied)).toEqual(guess)
    expect(await store.count()).toEqual({ active: 1, passive: 0, inactive: 1 })
  })

  it('applies events of one user sent by several instances at once as one after another: no update lost', async () => {
    const handles = await harness.instances(3)
    const users = Array.from({ length: 6 }, () => randomUUID())
    // Twelve events per user, 100 ms apart, arriving all at once in a shuffled order.
    const causes = [INSTALLED, ACTIVATED, PASSIVE, DEACTIVATED] as const
    const events = users.flatMap((user) =>
      Array.from({ length: 12 }, (_, step) => ({ user, stamp: seen(causes[step % 4] as Stamp['cause'], step * 100) })),
    )
    shuffle(events)
    const results = await Promise.all(
      events.map(async (event, i) => ({
        ...event,
        result: await (handles[i % handles.length] as UserStore<unknown>).apply(event.user, event.stamp, 0),
      })),
    )
    for (const user of users) {
      const mine = results.filter((r) => r.user === user)
      const latest = seen(DEACTIVATED, 1100)
      expect(await (handles[0] as UserStore<unknown>).get(user)).toEqual(latest)
      // As if one after another: exactly one saw the user unknown, and each result's `before` is
      // the state some other apply left (the stamp it applied), never one that was overwritten unseen.
      expect(mine.filter((r) => r.result.before === undefined)).toHaveLength(1)
      const applied = mine.filter((r) => r.result.verdict === 'applied').map((r) => r.result.after)
      for (const { result } of mine) if (result.before) expect(applied).toContainEqual(result.before)
      for (const { stamp, result } of mine) expectOrdered(stamp, result)
    }
    expect(await (handles[1] as UserStore<unknown>).count()).toEqual({ active: 0, passive: 0, inactive: users.length })
  })

  it('keeps two thousand users apart: each its own state, counted and listed once', async () => {
    const handles = await harness.instances(3)
    const store = handles[0] as UserStore<unknown>
    const causes = [INSTALLED, ACTIVATED, PASSIVE, UNINSTALLED] as const
    const statuses = ['inactive', 'active', 'passive', 'uninstalled'] as const
    const users = Array.from({ length: 2000 }, (_, i) => ({
      id: `user-${String(i).padStart(4, '0')}`,
      stamp: seen(causes[i % 4] as Stamp['cause'], i),
      status: statuses[i % 4] as UserStatus,
    }))
    await inBatches(users, 60, (user, i) => (handles[i % 3] as UserStore<unknown>).apply(user.id, user.stamp, 0))
    const expected = (status: UserStatus) => users.filter((user) => user.status === status).map((user) => user.id)
    expect(await store.count()).toEqual({ active: 500, passive: 500, inactive: 500 })
    for (const status of statuses) expect(await listed(store, status, 128)).toEqual(expected(status))
    const sample = users.filter((_, i) => i % 37 === 0)
    for (const user of sample) expect(await store.get(user.id)).toEqual(user.stamp)
  })

  it('orders a refresh and a webhook only past the margin it is given', async () => {
    const store = await fresh()
    const [close, far] = [randomUUID(), randomUUID()]
    const refresh: Stamp = { at: BASE + 10_000, coarse: false, cause: API_ACTIVE, uncertain: false }
    for (const user of [close, far]) await store.apply(user, refresh, 1000)
    // Sent 500 ms before the refresh: within the margin, the order is not known.
    const within = await store.apply(close, seen(DEACTIVATED, 9_500), 1000)
    expect(within).toEqual({ verdict: 'uncertain', before: refresh, after: { ...refresh, uncertain: true } })
    expect(await store.apply(far, seen(DEACTIVATED, 8_500), 1000)).toMatchObject({ verdict: 'stale', after: refresh })
    expect(await store.apply(far, seen(DEACTIVATED, 9_500), 0)).toMatchObject({ verdict: 'stale', after: refresh })
  })

  it('takes the default 1 s margin through createUserStates: an event 500 ms before a refresh is uncertain', async () => {
    const store = await fresh()
    const user = randomUUID()
    const refresh: Stamp = { at: BASE + 10_000, coarse: false, cause: API_ACTIVE, uncertain: false }
    await store.apply(user, refresh, DEFAULT_MARGIN_MS)
    const users = createUserStates({ store })
    const event = (ms: number) =>
      ({
        event: 'app.deactivated',
        user_app_id: user,
        app_id: 'app_contract',
        timestamp: new Date(BASE + ms).toISOString(),
        data: {},
      }) as unknown as LifecycleEvent
    expect(DEFAULT_MARGIN_MS).toBe(1000)
    expect(await users.apply(event(9_500))).toMatchObject({ verdict: 'uncertain', stale: false })
    expect(await users.get(user)).toMatchObject({ state: 'active', uncertain: true })
    expect(await users.apply(event(8_900))).toMatchObject({ verdict: 'stale', stale: true })
  })

  it('answers nothing for a user never seen, and lists no one in an empty store', async () => {
    const store = await fresh()
    expect(await store.get(randomUUID())).toBeUndefined()
    expect(await store.count()).toEqual({ active: 0, passive: 0, inactive: 0 })
    for (const status of ['active', 'passive', 'inactive', 'uninstalled'] as const)
      expect(await listed(store, status)).toEqual([])
  })

  it('writes in the caller’s transaction, if it joins one: rolled back with it, committed with it', async () => {
    const { transaction } = harness
    const store = await fresh()
    const [rolledBack, committed] = [randomUUID(), randomUUID()]
    const apply = (user: string) => async (via: unknown) => {
      expect((await store.apply(user, seen(ACTIVATED, 0), 0, via)).verdict).toBe('applied')
    }
    if (!transaction) {
      // A store without transactions of its caller's writes at once, whatever `via` is.
      await apply(committed)(undefined)
    } else {
      await transaction(apply(rolledBack), 'rollback')
      expect(await store.get(rolledBack)).toBeUndefined()
      await transaction(apply(committed), 'commit')
      // The user is applied afresh after the rollback: the roll back left no trace.
      await transaction(apply(rolledBack), 'commit')
      expect(await store.get(rolledBack)).toEqual(seen(ACTIVATED, 0))
    }
    expect(await store.get(committed)).toEqual(seen(ACTIVATED, 0))
  })

  it('holds a user until the caller’s transaction ends, if it joins one: another instance waits, then sees it', async () => {
    const { transaction, untilWaiting } = harness
    const [mine, other] = (await harness.instances(2)) as [UserStore<unknown>, UserStore<unknown>]
    const user = randomUUID()
    const older = seen(ACTIVATED, 100)
    const newer = seen(DEACTIVATED, 200)
    if (!transaction || !untilWaiting) {
      // Without transactions of its caller, each apply is whole at once.
      await mine.apply(user, newer, 0)
      expect(await other.apply(user, older, 0)).toEqual({ verdict: 'stale', before: newer, after: newer })
      return
    }
    let meanwhile: Promise<StoreResult> | undefined
    await transaction(async (via) => {
      await mine.apply(user, newer, 0, via)
      // Sent while the newer event is written but not committed: it must wait for the commit.
      meanwhile = other.apply(user, older, 0)
      await untilWaiting()
    }, 'commit')
    expect(await meanwhile).toEqual({ verdict: 'stale', before: newer, after: newer })
    expect(await other.get(user)).toEqual(newer)
  })
}

/** What `decide` says of two webhooks 100 ms apart or more: the later wins; equal ones are duplicates. */
function expectOrdered(stamp: Stamp, result: StoreResult): void {
  const { before } = result
  const expected: StoreResult =
    before === undefined || stamp.at > before.at
      ? { verdict: 'applied', before, after: settled(stamp) }
      : { verdict: stamp.at < before.at ? 'stale' : 'duplicate', before, after: before }
  expect(result).toEqual(expected)
}
