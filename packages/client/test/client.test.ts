import { RinghookConfigError } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { createClient, InvalidRequestError, NotFoundError, ValidationError } from '../src/index.js'
import { startFixture } from './fixture-server.js'
import { ALICE, APP, BOB, CAROL, KEY, memoryLogger, OTHER_APP, UNLINKED_KEY, useWorld, worldConfig } from './world.js'

describe('read endpoints', () => {
  const world = useWorld()

  it('lists installs and sends the key as a bearer token under /v1', async () => {
    const { installs } = await world.client().installs.list(APP)
    expect(installs.map((i) => [i.user_app_id, i.is_active])).toEqual([
      [ALICE, true],
      [BOB, true],
      [CAROL, false],
    ])
    expect(world.fixture.requests[0]).toMatchObject({
      method: 'GET',
      path: `/v1/apps/${APP}/installs`,
      authorization: `Bearer ${KEY}`,
    })
  })

  it('reads the key holder’s own install with @me, unencoded in the path', async () => {
    const install = await world.client().installs.me(APP)
    expect(install).toMatchObject({ user_app_id: ALICE, app_id: APP, is_active: true })
    expect(world.fixture.requests[0]?.path).toBe(`/v1/apps/${APP}/installs/@me`)
  })

  it('refuses @me for a key not linked to an account with a 400', async () => {
    const client = world.client({ apiKey: UNLINKED_KEY })
    await expect(client.installs.me(APP)).rejects.toBeInstanceOf(InvalidRequestError)
    await expect(client.users.get(APP, '@me')).rejects.toMatchObject({ status: 400, code: 'me_unresolvable' })
  })

  it('lists users, filtered by state or not', async () => {
    const client = world.client()
    expect((await client.users.list(APP)).users).toHaveLength(3)
    const { users } = await client.users.list(APP, { state: 'passive' })
    expect(users).toEqual([{ user_app_id: BOB, state: 'passive', installed_at: '2024-05-01T10:00:00.000Z' }])
    expect((await client.users.list(APP, { state: 'all' })).users).toHaveLength(3)
    expect(world.fixture.requests.map((r) => r.path)).toEqual([
      `/v1/apps/${APP}/users`,
      `/v1/apps/${APP}/users?state=passive`,
      `/v1/apps/${APP}/users?state=all`,
    ])
  })

  it('gets one user by id or @me, with permissions', async () => {
    const client = world.client()
    expect(await client.users.get(APP, CAROL)).toEqual({
      user_app_id: CAROL,
      state: 'inactive',
      installed_at: '2024-05-01T10:00:00.000Z',
      permissions: { vibes: false, gestures: true },
      app_id: APP,
    })
    expect(await client.users.get(APP, '@me')).toMatchObject({ user_app_id: ALICE, app_id: APP })
  })

  it('reports apps of other keys as not found', async () => {
    await expect(world.client().installs.list(OTHER_APP)).rejects.toBeInstanceOf(NotFoundError)
    await expect(world.client().users.list(OTHER_APP)).rejects.toBeInstanceOf(NotFoundError)
  })

  it('reads the vibe patterns', async () => {
    expect(await world.client().vibes.patterns()).toEqual({
      patterns: ['tap', 'pulse'],
      max_sequence_length: 3,
      timing: { min_delay_ms: 150, max_delay_ms: 2000, default_delay_ms: 300 },
    })
  })

  it('validates identifiers and the state filter before sending anything', async () => {
    const client = world.client()
    await expect(client.installs.list('')).rejects.toMatchObject({ name: 'ValidationError', field: 'appId' })
    await expect(client.users.get(APP, ' ')).rejects.toMatchObject({ field: 'userAppId' })
    // @ts-expect-error: not a state
    await expect(client.users.list(APP, { state: 'asleep' })).rejects.toBeInstanceOf(ValidationError)
    await expect(client.events.response('')).rejects.toMatchObject({ field: 'eventId' })
    expect(world.fixture.requests).toHaveLength(0)
  })

  it('encodes path segments', async () => {
    await expect(world.client().users.get(APP, 'a/b?c')).rejects.toBeInstanceOf(InvalidRequestError)
    expect(world.fixture.requests[0]?.path).toBe(`/v1/apps/${APP}/users/a%2Fb%3Fc`)
  })
})

describe('prefix and base URL', () => {
  const warnings = (logger: ReturnType<typeof memoryLogger>) => logger.lines.filter((line) => line.level === 'warn')

  it('talks to a server without the /v1 prefix when prefix is empty', async () => {
    const fixture = await startFixture({ ...worldConfig(), prefix: '' })
    try {
      const client = createClient({ apiKey: KEY, baseUrl: fixture.url, prefix: '' })
      expect((await client.users.list(APP)).users).toHaveLength(3)
      expect(fixture.requests[0]?.path).toBe(`/apps/${APP}/users`)
    } finally {
      await fixture.close()
    }
  })

  it('keeps a path in the base URL and normalizes the prefix', async () => {
    const fixture = await startFixture({ ...worldConfig(), prefix: '/api/v2' })
    try {
      const client = createClient({ apiKey: KEY, baseUrl: `${fixture.url}/api/`, prefix: 'v2/' })
      expect((await client.vibes.patterns()).max_sequence_length).toBe(3)
      expect(fixture.requests[0]?.path).toBe('/api/v2/vibes/patterns')
    } finally {
      await fixture.close()
    }
  })

  it('drops /v1 from a base URL that already ends in it, and warns once', async () => {
    const fixture = await startFixture(worldConfig())
    try {
      const logger = memoryLogger()
      const client = createClient({ apiKey: KEY, baseUrl: `${fixture.url}/v1/`, logger })
      expect((await client.users.list(APP)).users).toHaveLength(3)
      await client.vibes.patterns()
      expect(fixture.requests.map((r) => r.path)).toEqual([`/v1/apps/${APP}/users`, '/v1/vibes/patterns'])
      expect(warnings(logger)).toEqual([
        {
          level: 'warn',
          fields: { baseUrl: fixture.url, prefix: '/v1' },
          message: expect.stringContaining(`requesting ${fixture.url}/v1/..., not .../v1/v1/...`),
        },
      ])
    } finally {
      await fixture.close()
    }
  })

  it('keeps the rest of a base URL path ending in the prefix, and reaches a server under /v1/v1 when told', async () => {
    const gateway = await startFixture({ ...worldConfig(), prefix: '/ring/v1' })
    const doubled = await startFixture({ ...worldConfig(), prefix: '/v1/v1' })
    try {
      const logger = memoryLogger()
      await createClient({ apiKey: KEY, baseUrl: `${gateway.url}/ring/v1`, logger }).vibes.patterns()
      expect(gateway.requests[0]?.path).toBe('/ring/v1/vibes/patterns')
      expect(warnings(logger)).toMatchObject([{ level: 'warn', fields: { baseUrl: `${gateway.url}/ring` } }])

      const quiet = memoryLogger()
      await createClient({ apiKey: KEY, baseUrl: doubled.url, prefix: '/v1/v1', logger: quiet }).vibes.patterns()
      await createClient({ apiKey: KEY, baseUrl: `${doubled.url}/v1/v1`, prefix: '', logger: quiet }).vibes.patterns()
      expect(doubled.requests.map((r) => r.path)).toEqual(['/v1/v1/vibes/patterns', '/v1/v1/vibes/patterns'])
      expect(warnings(quiet)).toEqual([])
    } finally {
      await gateway.close()
      await doubled.close()
    }
  })

  it('refuses a configuration that cannot work', () => {
    expect(() => createClient({ apiKey: '', baseUrl: 'http://127.0.0.1' })).toThrow(RinghookConfigError)
    expect(() => createClient({ apiKey: KEY, baseUrl: 'not a url' })).toThrow(/baseUrl/)
    expect(() => createClient({ apiKey: KEY, baseUrl: 'ftp://example.com' })).toThrow(/baseUrl/)
    expect(() => createClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1', timeoutMs: 0 })).toThrow(/timeoutMs/)
  })
})
