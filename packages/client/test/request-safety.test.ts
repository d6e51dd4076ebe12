// The request the client sends is the one the call asked for, or none: ids that would move the
// path are refused before anything is sent, errors name the path as requested, and a request the
// platform refuses to build is reported as not sent and not retried.
import { RinghookConfigError, silentLogger } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  createClient,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  RinghookApiError,
  type RinghookClient,
  UnsendableRequestError,
  ValidationError,
} from '../src/index.js'
import { resolveRetry } from '../src/retry.js'
import { createTransport } from '../src/transport.js'
import { startFixture } from './fixture-server.js'
import { ALICE, APP, fakeClock, KEY, useWorld, worldConfig } from './world.js'

/** Every call that puts an id into the path, with the field the id is reported as. */
const calls: { name: string; field: string; call: (client: RinghookClient, id: string) => Promise<unknown> }[] = [
  { name: 'users.get (user)', field: 'userAppId', call: (c, id) => c.users.get(APP, id) },
  { name: 'users.get (app)', field: 'appId', call: (c, id) => c.users.get(id, ALICE) },
  { name: 'users.list', field: 'appId', call: (c, id) => c.users.list(id) },
  { name: 'installs.list', field: 'appId', call: (c, id) => c.installs.list(id) },
  { name: 'installs.me', field: 'appId', call: (c, id) => c.installs.me(id) },
  { name: 'events.response', field: 'eventId', call: (c, id) => c.events.response(id) },
  { name: 'events.waitForResponse', field: 'eventId', call: (c, id) => c.events.waitForResponse(id) },
]

describe('ids that would change the path', () => {
  const world = useWorld()

  it.each(calls)('$name refuses ".", "..", "" and blanks before sending anything', async ({ field, call }) => {
    const client = world.client()
    for (const id of ['.', '..', '', '  ']) {
      const error = await call(client, id).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ValidationError)
      expect(error).toMatchObject({ kind: 'validation', field })
    }
    expect(world.fixture.requests).toEqual([])
  })

  it('sends an id with dots and slashes in it as one segment, and names that path in the error', async () => {
    const client = world.client({ retry: false })
    for (const id of ['../..', '.%2e', '%2e%2e', 'a/../b', '...']) {
      const error = await client.users.get(APP, id).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RinghookApiError)
      const sent = world.fixture.requests.at(-1)?.path
      expect(sent).toBe(`/v1/apps/${APP}/users/${encodeURIComponent(id)}`)
      expect((error as RinghookApiError).request.path).toBe(sent)
    }
  })
})

describe('the path named in errors', () => {
  it('is the path as requested, the base URL path included', async () => {
    const fixture = await startFixture({ ...worldConfig(), prefix: '/ring/v1' })
    try {
      const client = createClient({ apiKey: KEY, baseUrl: `${fixture.url}/ring`, logger: silentLogger, retry: false })
      const error = await client.events.response('evt_unknown').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(NotFoundError)
      expect(fixture.requests.map((r) => r.path)).toEqual(['/ring/v1/events/evt_unknown/response'])
      expect(error).toMatchObject({ request: { method: 'GET', path: '/ring/v1/events/evt_unknown/response' } })
      expect((error as Error).message).toContain('GET /ring/v1/events/evt_unknown/response')
    } finally {
      await fixture.close()
    }
  })

  it('a prefix the URL parser would rewrite is refused by createClient', () => {
    for (const prefix of ['..', '/v1/..', './v1', 'v 1']) {
      expect(() => createClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:1/api', prefix })).toThrow(
        RinghookConfigError,
      )
    }
  })
})

describe('a request the platform refuses to build', () => {
  const world = useWorld()
  const badKeys = ['rk_line\r\nX-Injected: 1', 'rk_nul\u0000key', 'rk_euro_€']

  it('createClient refuses an API key fetch cannot send, without quoting it', () => {
    for (const apiKey of badKeys) {
      const error = (() => {
        try {
          createClient({ apiKey, baseUrl: world.fixture.url })
        } catch (e) {
          return e
        }
      })()
      expect(error).toBeInstanceOf(RinghookConfigError)
      expect((error as Error).message).toContain('not a valid HTTP header value')
      expect((error as Error).message).not.toContain(apiKey.slice(3))
    }
    expect(world.fixture.requests).toEqual([])
  })

  it('createClient refuses a base URL with credentials', () => {
    const url = new URL(world.fixture.url)
    url.username = 'user'
    url.password = 'hunter2'
    expect(() => createClient({ apiKey: KEY, baseUrl: url })).toThrow(/credentials/)
    expect(() => createClient({ apiKey: KEY, baseUrl: url })).not.toThrow(/hunter2/)
  })

  it('is reported as not sent and tried once, for a GET too', async () => {
    // Past createClient's own check (a transport built directly), as with a key fetch's rules change for.
    for (const apiKey of badKeys) {
      let fetched = 0
      const send = createTransport({
        apiKey,
        baseUrl: new URL(world.fixture.url),
        prefix: '/v1',
        fetch: (input, init) => {
          fetched++
          return fetch(input, init)
        },
        retry: resolveRetry({ maxAttempts: 3 }),
        limiter: undefined,
        clock: fakeClock(),
        logger: silentLogger,
        instrumentation: undefined,
      })
      const error = await send({
        method: 'GET',
        endpoint: '/vibes/patterns',
        path: '/vibes/patterns',
        schema: z.unknown(),
        retry: 'read',
        timeoutMs: 5000,
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsendableRequestError)
      expect(error).toBeInstanceOf(NetworkError)
      expect(error).not.toBeInstanceOf(InvalidRequestError)
      expect(error).toMatchObject({
        kind: 'unsendable_request',
        notSent: true,
        request: { path: '/v1/vibes/patterns' },
      })
      expect((error as Error).message).not.toContain(apiKey.slice(3))
      expect((error as Error).cause).toBeUndefined()
      expect(fetched).toBe(1)
    }
    expect(world.fixture.requests).toEqual([])
  })
})
