import { describe, expect, it } from 'vitest'
import {
  BadRequestError,
  ForbiddenError,
  InvalidRequestError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PermissionDisabledError,
  RateLimitedError,
  RinghookApiError,
  RinghookClientError,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../src/index.js'
import { ALICE, APP, CAROL, KEY, STRANGER, useWorld } from './world.js'

const tap = { app_id: APP, sequence: [{ type: 'tap' as const }] }

describe('errors from the service', () => {
  const world = useWorld()
  const noRetry = () => world.client({ retry: false })

  it('400: a field the service refused, with code, message and request id', async () => {
    const error = await noRetry()
      .users.get(APP, 'not-a-uuid')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).toMatchObject({
      name: 'InvalidRequestError',
      kind: 'invalid_request',
      status: 400,
      code: 'invalid_user_app_id',
      message: expect.stringContaining('user_app_id is malformed'),
      requestId: expect.stringMatching(/^req_\d+$/),
      request: { method: 'GET', path: `/v1/apps/${APP}/users/not-a-uuid` },
    })
  })

  it('401: an unknown key', async () => {
    const error = await world
      .client({ apiKey: 'rk_wrong' })
      .vibes.patterns()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnauthorizedError)
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', kind: 'unauthorized' })
  })

  it('403: a user who has not installed the app, and permission_disabled told apart', async () => {
    const client = noRetry()
    const missing = await client.vibes.trigger({ ...tap, user_app_id: STRANGER }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(ForbiddenError)
    expect(missing).not.toBeInstanceOf(PermissionDisabledError)
    expect(missing).toMatchObject({ kind: 'forbidden', code: 'not_installed' })
    const disabled = await client.vibes.trigger({ ...tap, user_app_id: CAROL }).catch((e: unknown) => e)
    expect(disabled).toBeInstanceOf(PermissionDisabledError)
    expect(disabled).toBeInstanceOf(ForbiddenError)
    expect(disabled).toMatchObject({ status: 403, kind: 'permission_disabled', code: 'permission_disabled' })
  })

  it('404: an unknown event', async () => {
    const error = await noRetry()
      .events.response('evt_missing')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ status: 404, code: 'event_not_found' })
  })

  it('429: carries the Retry-After delay once retries are off or spent', async () => {
    world.fixture.inject({
      status: 429,
      body: '{"error":{"code":"rate_limited","message":"slow down"}}',
      headers: { 'retry-after': '7' },
    })
    const error = await noRetry()
      .vibes.patterns()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({
      name: 'RateLimitedError',
      status: 429,
      code: 'rate_limited',
      retryAfterMs: 7000,
      kind: 'rate_limited',
    })
  })

  it('the deprecated names still catch what they caught: 400 and 429 from the service', async () => {
    world.fixture.inject({ status: 429, body: '' })
    const client = noRetry()
    const limited = await client.vibes.patterns().catch((e: unknown) => e)
    expect(limited).toBeInstanceOf(TooManyRequestsError)
    const refused = await client.users.get(APP, 'not-a-uuid').catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(BadRequestError)
    expect(refused).not.toBeInstanceOf(TooManyRequestsError)
    expect(limited).not.toBeInstanceOf(BadRequestError)
  })

  it('400 and 429 without a code in the body get the service’s codes', async () => {
    world.fixture.inject({ status: 400, body: 'nope' }, { status: 429, body: '' })
    const client = noRetry()
    await expect(client.vibes.patterns()).rejects.toMatchObject({ code: 'invalid_request', kind: 'invalid_request' })
    await expect(client.vibes.patterns()).rejects.toMatchObject({ code: 'rate_limited', kind: 'rate_limited' })
  })

  it.each([500, 502, 503])('%i: a ServerError', async (status) => {
    world.fixture.inject({ status, body: 'upstream exploded' })
    const error = await noRetry()
      .installs.list(APP)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ status, code: 'server_error', message: expect.stringContaining('upstream exploded') })
  })

  it('another status: the base RinghookApiError', async () => {
    world.fixture.inject({ status: 409, body: '' })
    const error = await noRetry()
      .installs.list(APP)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RinghookApiError)
    expect(error).toMatchObject({ status: 409, code: 'http_409', kind: 'http_error' })
  })

  it('reads error bodies the service might shape differently', async () => {
    world.fixture.inject(
      { status: 403, body: '{"error":"permission_disabled","message":"Vibes are off"}' },
      { status: 400, body: '{"code":"bad_delay","message":"delay out of range","request_id":"abc"}', headers: {} },
      { status: 403, body: '{"detail":{"reason":"permission_disabled"}}' },
    )
    const client = noRetry()
    await expect(client.vibes.trigger({ ...tap, user_app_id: ALICE })).rejects.toMatchObject({
      kind: 'permission_disabled',
      message: expect.stringContaining('Vibes are off'),
    })
    await expect(client.vibes.patterns()).rejects.toMatchObject({ code: 'bad_delay', message: expect.any(String) })
    await expect(client.vibes.patterns()).rejects.toBeInstanceOf(PermissionDisabledError)
  })
})

describe('answers that are not what the spec promises', () => {
  const world = useWorld()

  it('a 200 that is not JSON', async () => {
    world.fixture.inject({ status: 200, body: '<html>gateway</html>' })
    const error = await world
      .client()
      .vibes.patterns()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error).toMatchObject({
      kind: 'invalid_response',
      status: 200,
      bodySnippet: '<html>gateway</html>',
      requestId: expect.stringMatching(/^req_/),
    })
  })

  it('a 200 of the wrong shape, naming the field', async () => {
    world.fixture.inject({ status: 200, body: '{"installs":[{"user_app_id":1}]}' })
    const error = await world
      .client()
      .installs.list(APP)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect((error as Error).message).toContain('installs.0.user_app_id')
  })
})

describe('network failures', () => {
  const world = useWorld()

  it('a connection dropped mid-request, after retries', async () => {
    world.fixture.inject({ drop: true }, { drop: true })
    const error = await world
      .client({ retry: { maxAttempts: 2 } })
      .installs.list(APP)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ kind: 'network', notSent: false, request: { method: 'GET' } })
    expect(world.fixture.requests).toHaveLength(2)
  })

  it('no answer within timeoutMs', async () => {
    world.fixture.inject({ delayMs: 300 })
    const error = await world
      .client({ retry: false, timeoutMs: 50 })
      .vibes.patterns()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 50, notSent: false })
  })

  it('every error is a RinghookClientError and none carries the API key', async () => {
    world.fixture.inject({ status: 500 }, { drop: true }, { status: 200, body: 'nope' })
    const client = world.client({ retry: false })
    const errors = await Promise.all([
      client.vibes.patterns().catch((e: unknown) => e),
      client.vibes.patterns().catch((e: unknown) => e),
      client.vibes.patterns().catch((e: unknown) => e),
      client.users.get(APP, 'x').catch((e: unknown) => e),
    ])
    for (const error of errors) {
      expect(error).toBeInstanceOf(RinghookClientError)
      const text = JSON.stringify({
        ...(error as object),
        message: (error as Error).message,
        stack: (error as Error).stack,
      })
      expect(text).not.toContain(KEY)
    }
    expect(JSON.stringify(world.logger.lines)).not.toContain(KEY)
  })
})
