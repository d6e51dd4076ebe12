// @ringhook/client against the simulator over real HTTP: every answer of the trigger endpoint
// (section 7's errors, the rate limits, not_enabled, truncation, @me, await and poll), with the
// `/v1` prefix and without it.
import {
  type ClientOptions,
  createClient,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PermissionDisabledError,
  RateLimitedError,
  type RinghookApiError,
  UnauthorizedError,
  ValidationError,
  vibe,
} from '@ringhook/client'
import { createFakeClock, createSimulator, type SimulatorOptions } from '@ringhook/simulator'
import type { RequestEntry } from '@ringhook/simulator/control-api'
import { afterEach, describe, expect, it } from 'vitest'
import { recordingLogger } from './support/observe.js'

let closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers) await close()
  closers = []
})

const tap = { sequence: [{ type: 'tap' as const }] }
const question = { ...tap, response_config: { type: 'yes_no_dismiss' as const } }

/** Ada's key (linked to her account), her notifications app installed and active, a client on the key. */
async function setup(prefix: string, sim: SimulatorOptions = {}, client: Partial<ClientOptions> = {}) {
  // 1000 times faster: an await timeout of 5 s takes 5 ms.
  const simulator = await createSimulator({ timeScale: 0.001, ...sim })
  closers.push(() => simulator.close())
  const ada = simulator.users.create({ name: 'Ada' })
  const key = simulator.keys.create({ user_id: ada.id })
  const app = simulator.apps.create({ key_id: key.id, type: 'preferred_notification', name: 'Questions' })
  const { install } = await simulator.install(app.app_id, ada.id, { activate: true })
  const logger = recordingLogger()
  const options = { apiKey: key.token, baseUrl: simulator.url, prefix, logger, retry: false as const, ...client }
  const requests = () => simulator.log.entries({ type: 'request' }) as RequestEntry[]
  return {
    sim: simulator,
    ada,
    key,
    app,
    uai: install.user_app_id,
    logger,
    client: createClient(options),
    /** Another client on the same simulator, e.g. with another key. */
    clientWith: (more: Partial<ClientOptions>) => createClient({ ...options, ...more }),
    requests,
  }
}

/** Resolves with the error a call rejected with, failing the test when it resolved. */
async function failure<E extends Error>(
  call: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(type)
  return error as E
}

describe.each([
  { name: 'with the /v1 prefix', prefix: '/v1' },
  { name: 'without a prefix', prefix: '' },
])('client against the simulator, $name', ({ prefix }) => {
  it('reads installs, users and patterns and sends a vibe, on the paths the prefix says', async () => {
    const w = await setup(prefix)
    expect((await w.client.installs.list(w.app.app_id)).installs).toEqual([
      expect.objectContaining({ user_app_id: w.uai, is_active: true }),
    ])
    expect(await w.client.users.get(w.app.app_id, w.uai)).toMatchObject({
      state: 'active',
      permissions: { vibes: true, gestures: true },
    })
    expect((await w.client.vibes.patterns()).max_sequence_length).toBe(3)
    const result = await w.client.vibes.trigger({
      app_id: w.app.app_id,
      user_app_id: w.uai,
      vibe: vibe('tap', 'pulse'),
    })
    expect(result).toMatchObject({ success: true, response_mode: 'webhook', delivery: { app_state: 'active' } })
    expect(w.sim.log.vibes()).toEqual([expect.objectContaining({ event_id: result.event_id, status: 'delivered' })])
    expect(w.requests().map((r) => r.path)).toEqual([
      `${prefix}/apps/${w.app.app_id}/installs`,
      `${prefix}/apps/${w.app.app_id}/users/${w.uai}`,
      `${prefix}/vibes/patterns`,
      `${prefix}/vibes/trigger`,
    ])
  })

  it('400: a field the client cannot judge (a question from a control app) is the service’s invalid_request', async () => {
    const w = await setup(prefix)
    const control = w.sim.apps.create({ key_id: w.key.id, type: 'control' })
    const { install } = await w.sim.install(control.app_id, w.ada.id, { activate: true })
    const error = await failure(
      w.client.vibes.trigger({ app_id: control.app_id, user_app_id: install.user_app_id, ...question }),
      InvalidRequestError,
    )
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', kind: 'invalid_request' })
    expect(error.message).toContain('response_config')
    expect(error.requestId).toBe(w.requests().at(-1)?.request_id)
    expect(error.request).toEqual({ method: 'POST', path: `${prefix}/vibes/trigger` })
  })

  it('400: a delay the client would refuse, sent anyway past its validation, is refused by the service', async () => {
    // The body is rewritten after the client checked it: what a client without validation would send.
    const tooShort: typeof fetch = (input, init) => {
      const body = JSON.parse(String(init?.body)) as { sequence: Array<{ delay_ms?: number }> }
      body.sequence[0] = { ...body.sequence[0], delay_ms: 10 }
      return fetch(input, { ...init, body: JSON.stringify(body) })
    }
    const w = await setup(prefix, {}, { fetch: tooShort })
    const error = await failure(
      w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id: w.uai, ...tap }),
      InvalidRequestError,
    )
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' })
    expect(error.message).toContain('sequence.0.delay_ms')
    expect(w.sim.log.vibes()).toEqual([])
  })

  it('401: an unknown key is UnauthorizedError on every endpoint, never retried', async () => {
    const w = await setup(prefix)
    const stranger = w.clientWith({ apiKey: 'rk_sim_unknown_key', retry: { maxAttempts: 3 } })
    await failure(stranger.vibes.trigger({ app_id: w.app.app_id, user_app_id: w.uai, ...tap }), UnauthorizedError)
    await failure(stranger.installs.list(w.app.app_id), UnauthorizedError)
    expect(w.requests().map((r) => r.status)).toEqual([401, 401])
  })

  it('403 permission_disabled: the user turned vibes off', async () => {
    const w = await setup(prefix)
    w.sim.updateInstall(w.uai, { permissions: { vibes: false } })
    const error = await failure(
      w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id: w.uai, ...tap }),
      PermissionDisabledError,
    )
    expect(error).toBeInstanceOf(ForbiddenError)
    expect(error).toMatchObject({ status: 403, code: 'permission_disabled', kind: 'permission_disabled' })
  })

  it('403: the user has not installed the app, by id or as @me', async () => {
    const w = await setup(prefix)
    const control = w.sim.apps.create({ key_id: w.key.id, type: 'control' })
    const grace = w.sim.users.create({ name: 'Grace' })
    const { install } = await w.sim.install(control.app_id, grace.id)
    // Grace's install of another app is not an install of this one.
    for (const target of [install.user_app_id, '@me']) {
      const app_id = target === '@me' ? control.app_id : w.app.app_id
      const error = await failure(w.client.vibes.trigger({ app_id, user_app_id: target, ...tap }), ForbiddenError)
      expect(error).not.toBeInstanceOf(PermissionDisabledError)
      expect(error).toMatchObject({ status: 403, kind: 'forbidden' })
    }
  })

  it('404: another owner’s app is not found, on triggers and reads alike', async () => {
    const w = await setup(prefix)
    const other = w.sim.keys.create()
    const theirs = w.sim.apps.create({ key_id: other.id, type: 'preferred_notification' })
    const { install } = await w.sim.install(theirs.app_id, w.ada.id, { activate: true })
    await failure(
      w.client.vibes.trigger({ app_id: theirs.app_id, user_app_id: install.user_app_id, ...tap }),
      NotFoundError,
    )
    await failure(w.client.installs.list(theirs.app_id), NotFoundError)
    await failure(w.client.users.list(theirs.app_id), NotFoundError)
    // Its owner reaches it.
    const owner = w.clientWith({ apiKey: other.token })
    expect((await owner.installs.list(theirs.app_id)).installs).toHaveLength(1)
  })

  it('429: 30 vibes per minute per user (2 here), then RateLimitedError with Retry-After; other users are not held back', async () => {
    const w = await setup(prefix, { rateLimits: { vibesPerUser: { limit: 2, windowMs: 60_000 } } })
    const send = (user_app_id: string) => w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id, ...tap })
    await send(w.uai)
    await send('@me') // the same person, named another way, counts against the same quota
    const error = await failure(send(w.uai), RateLimitedError)
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', kind: 'rate_limited', retryAfterMs: 60_000 })
    const grace = w.sim.users.create({ name: 'Grace' })
    const { install } = await w.sim.install(w.app.app_id, grace.id, { activate: true })
    expect((await send(install.user_app_id)).success).toBe(true)
  })

  it('429: 100 requests per 60 s per key (3 here), on any endpoint', async () => {
    const w = await setup(prefix, { rateLimits: { requestsPerKey: { limit: 3, windowMs: 60_000 } } })
    for (let i = 0; i < 3; i++) await w.client.vibes.patterns()
    const error = await failure(w.client.installs.list(w.app.app_id), RateLimitedError)
    expect(error.retryAfterMs).toBeGreaterThan(0)
    // Another key of the same developer has its own budget.
    const other = w.sim.keys.create({ owner: w.key.owner })
    expect((await w.clientWith({ apiKey: other.token }).installs.list(w.app.app_id)).installs).toHaveLength(1)
  })

  it('429 then success: the client waits out Retry-After and resends the trigger', async () => {
    const clock = createFakeClock()
    // The client's sleep moves the simulator's clock: a 60 s wait takes no time.
    const sleeps: number[] = []
    const w = await setup(
      prefix,
      { clock: clock.now, rateLimits: { vibesPerUser: { limit: 1, windowMs: 60_000 } } },
      {
        retry: { maxAttempts: 2 },
        clock: {
          now: clock.now,
          sleep: async (ms) => {
            sleeps.push(ms)
            clock.advance(ms)
          },
        },
      },
    )
    await w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id: w.uai, ...tap })
    const second = await w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id: w.uai, ...tap })
    expect(second.success).toBe(true)
    expect(sleeps).toEqual([60_000])
    expect(w.requests().map((r) => r.status)).toEqual([200, 429, 200])
    expect(w.sim.log.vibes()).toHaveLength(2)
  })

  it.each([
    { barrier: 'muted', apply: (w: World) => w.sim.updateInstall(w.uai, { muted: true }) },
    { barrier: 'no priority slot', apply: (w: World) => w.sim.updateInstall(w.uai, { priority_slot: false }) },
    { barrier: 'ring off', apply: (w: World) => w.sim.users.update(w.ada.id, { ring_off: true }) },
    { barrier: 'companion app closed', apply: (w: World) => w.sim.users.update(w.ada.id, { companion_closed: true }) },
  ])('not_enabled ($barrier) is a result in every mode, returned at once', async ({ apply }) => {
    const w = await setup(prefix)
    apply(w)
    const base = { app_id: w.app.app_id, user_app_id: w.uai, ...question }
    for (const response_mode of ['webhook', 'poll'] as const) {
      expect(await w.client.vibes.trigger({ ...base, response_mode })).toEqual({
        success: false,
        event_id: null,
        response_mode,
        delivery_status: 'not_enabled',
      })
    }
    const awaited = await w.client.vibes.trigger({ ...base, response_mode: 'await', timeout_ms: 60_000 })
    expect(awaited).toMatchObject({ success: false, event_id: null, response: { status: 'not_enabled', value: null } })
    expect(w.sim.log.notifications()).toEqual([])
    expect(w.sim.log.vibes().map((v) => v.status)).toEqual(['not_enabled', 'not_enabled', 'not_enabled'])
  })

  it('truncation: refused by the client by default; with allowTruncation the service cuts it and warns', async () => {
    const w = await setup(prefix)
    const options = ['😀', '😃', '😄', '😁', '😆', '😅'].map((emoji, i) => ({
      emoji,
      label: i === 0 ? 'A label longer than fifteen' : `Option ${i}`,
    }))
    const input = {
      app_id: w.app.app_id,
      user_app_id: w.uai,
      ...tap,
      response_config: { type: 'emoji' as const, options },
      response_mode: 'poll' as const,
    }
    await failure(w.client.vibes.trigger(input), ValidationError)
    expect(w.requests()).toEqual([])

    const result = await w.client.vibes.trigger(input, { allowTruncation: true })
    expect(result.success).toBe(true)
    expect(result.warnings?.length).toBeGreaterThanOrEqual(2)
    const kept = w.sim.log.notifications()[0]?.response_config
    expect(kept).toEqual({
      type: 'emoji',
      options: options.slice(0, 5).map((o) => ({ ...o, label: o.label.slice(0, 15) })),
    })
    expect(w.logger.lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ event_id: result.event_id }) }),
    ])
  })

  it('@me works with a key linked to an account, and is an InvalidRequestError once unlinked', async () => {
    const w = await setup(prefix)
    expect(await w.client.installs.me(w.app.app_id)).toMatchObject({ app_id: w.app.app_id, user_app_id: w.uai })
    expect(await w.client.users.get(w.app.app_id, '@me')).toMatchObject({ user_app_id: w.uai })
    const sent = await w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id: '@me', ...tap })
    expect(w.sim.log.vibes()).toEqual([expect.objectContaining({ event_id: sent.event_id, user_app_id: w.uai })])

    w.sim.keys.link(w.key.id, null)
    for (const call of [
      w.client.installs.me(w.app.app_id),
      w.client.users.get(w.app.app_id, '@me'),
      w.client.vibes.trigger({ app_id: w.app.app_id, user_app_id: '@me', ...tap }),
    ]) {
      expect(await failure(call, InvalidRequestError)).toMatchObject({
        status: 400,
        kind: 'invalid_request',
      } satisfies Partial<RinghookApiError>)
    }
  })

  it('await: the answer the user gives while the request is held', async () => {
    const w = await setup(prefix)
    const shown = w.sim.nextNotification()
    const pending = w.client.vibes.trigger({
      app_id: w.app.app_id,
      user_app_id: w.uai,
      ...question,
      response_mode: 'await',
      timeout_ms: 60_000,
    })
    const notification = await shown
    await w.sim.answer(notification.event_id, 'yes')
    expect(await pending).toMatchObject({
      success: true,
      event_id: notification.event_id,
      response: { status: 'responded', value: 'yes', responded_at: expect.any(String) },
    })
  })

  it('await: timeout_ms (5 s of service time, 5 ms here) passes without an answer: timeout, value null', async () => {
    const w = await setup(prefix)
    const result = await w.client.vibes.trigger({
      app_id: w.app.app_id,
      user_app_id: w.uai,
      ...question,
      response_mode: 'await',
      timeout_ms: 5000,
    })
    expect(result.response).toEqual({ status: 'timeout', value: null })
    expect(w.sim.log.notifications()[0]).toMatchObject({ await: 'timeout', status: 'pending' })
  })

  it('poll: pending until the user answers, then responded', async () => {
    const w = await setup(prefix)
    const result = await w.client.vibes.trigger({
      app_id: w.app.app_id,
      user_app_id: w.uai,
      ...question,
      response_mode: 'poll',
    })
    const eventId = result.event_id as string
    expect(await w.client.events.response(eventId)).toEqual({
      event_id: eventId,
      status: 'pending',
      response: null,
      responded_at: null,
    })
    const waiting = w.client.events.waitForResponse(eventId, { intervalMs: 5, timeoutMs: 10_000 })
    await w.sim.answer(eventId, 'no')
    expect(await waiting).toMatchObject({ event_id: eventId, status: 'responded', response: 'no' })
    expect(w.requests().every((r) => r.path.startsWith(`${prefix}/`))).toBe(true)
  })
})

describe('client against the simulator, given the API URL it prints (with /v1)', () => {
  it('sends to /v1/... rather than /v1/v1/..., and warns once that baseUrl needs no /v1', async () => {
    const w = await setup('/v1')
    const printed = w.clientWith({ baseUrl: w.sim.apiUrl })
    expect((await printed.installs.list(w.app.app_id)).installs).toHaveLength(1)
    expect((await printed.vibes.patterns()).max_sequence_length).toBe(3)
    expect(w.requests().map((r) => [r.path, r.status])).toEqual([
      [`/v1/apps/${w.app.app_id}/installs`, 200],
      ['/v1/vibes/patterns', 200],
    ])
    expect(w.logger.lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ baseUrl: w.sim.url, prefix: '/v1' }) }),
    ])
  })
})

type World = Awaited<ReturnType<typeof setup>>
