import type { Logger } from '@ringhook/core'
import { afterEach, beforeEach } from 'vitest'
import { type ClientOptions, type Clock, createClient, type RinghookClient } from '../src/index.js'
import { type Fixture, type FixtureConfig, startFixture } from './fixture-server.js'

// One small world for every suite: a key linked to Alice's account, one not linked to any,
// and another developer's key and app.

export const KEY = 'rk_test_linked_0123456789'
export const UNLINKED_KEY = 'rk_test_unlinked'
export const OTHER_KEY = 'rk_test_other'
export const APP = 'app_demo'
export const OTHER_APP = 'app_other'
export const ALICE = '0f8e8a39-5f8c-4a55-9c51-7b7cf0f6a001'
export const BOB = '0f8e8a39-5f8c-4a55-9c51-7b7cf0f6a002'
export const CAROL = '0f8e8a39-5f8c-4a55-9c51-7b7cf0f6a003'
export const STRANGER = '0f8e8a39-5f8c-4a55-9c51-7b7cf0f6a0ff'
const installedAt = '2024-05-01T10:00:00.000Z'

export const worldConfig = (): FixtureConfig => ({
  keys: { [KEY]: { account: 'acct_alice' }, [UNLINKED_KEY]: {}, [OTHER_KEY]: {} },
  apps: [
    {
      app_id: APP,
      owners: [KEY, UNLINKED_KEY],
      users: [
        {
          user_app_id: ALICE,
          state: 'active',
          installed_at: installedAt,
          permissions: { vibes: true, gestures: true },
          account: 'acct_alice',
        },
        {
          user_app_id: BOB,
          state: 'passive',
          installed_at: installedAt,
          permissions: { vibes: true, gestures: false },
          notifications: false,
        },
        {
          user_app_id: CAROL,
          state: 'inactive',
          installed_at: installedAt,
          permissions: { vibes: false, gestures: true },
        },
      ],
    },
    { app_id: OTHER_APP, owners: [OTHER_KEY], users: [] },
  ],
  // 30 s await timeouts become 30 ms: nothing in these suites waits for real.
  awaitScale: 0.001,
})

/** Virtual time: `sleep` returns at once and moves the clock, recording what was asked. */
export function fakeClock(start = 1_700_000_000_000): Clock & { sleeps: number[]; onSleep?: () => void } {
  let now = start
  const clock: Clock & { sleeps: number[]; onSleep?: () => void } = {
    sleeps: [],
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted()
      clock.sleeps.push(ms)
      now += ms
      clock.onSleep?.()
    },
  }
  return clock
}

/** A logger that keeps every line, to assert on warnings and on what is never logged. */
export function memoryLogger(): Logger & { lines: { level: string; fields: object; message?: string }[] } {
  const lines: { level: string; fields: object; message?: string }[] = []
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message?: string): void => {
      lines.push({ level, fields, ...(message === undefined ? {} : { message }) })
    }
  const logger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  }
  return logger
}

export interface World {
  fixture: Fixture
  clock: ReturnType<typeof fakeClock>
  logger: ReturnType<typeof memoryLogger>
  /** A client for the fixture; fake clock and memory logger unless overridden. */
  client(options?: Partial<ClientOptions>): RinghookClient
}

/** Starts a fresh fixture around each test of the calling suite. */
export function useWorld(config: () => FixtureConfig = worldConfig): World {
  const world = {} as World
  beforeEach(async () => {
    world.fixture = await startFixture(config())
    world.clock = fakeClock()
    world.logger = memoryLogger()
    world.client = (options = {}) =>
      createClient({ apiKey: KEY, baseUrl: world.fixture.url, clock: world.clock, logger: world.logger, ...options })
  })
  afterEach(async () => {
    await world.fixture.close()
  })
  return world
}
