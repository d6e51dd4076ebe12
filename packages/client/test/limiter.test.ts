import { RinghookConfigError } from '@ringhook/core'
import { describe, expect, it } from 'vitest'
import { createRateLimiter, LocalRateLimitError, RateLimitedError, RinghookApiError } from '../src/index.js'
import { ALICE, APP, fakeClock, useWorld } from './world.js'

const tap = { app_id: APP, user_app_id: ALICE, sequence: [{ type: 'tap' as const }] }

describe('createRateLimiter', () => {
  it('defaults to the service’s limits: 100 requests per 60 s per key', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({ clock, mode: 'fail' })
    for (let i = 0; i < 100; i++) await limiter.acquire()
    await expect(limiter.acquire()).rejects.toMatchObject({ scope: 'key', retryAfterMs: 60_000 })
  })

  it('defaults to 30 vibes per minute per user, users counted apart', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({ clock, mode: 'fail' })
    for (let i = 0; i < 30; i++) await limiter.acquire('app/alice')
    await expect(limiter.acquire('app/alice')).rejects.toMatchObject({ scope: 'user' })
    await limiter.acquire('app/bob')
    await limiter.acquire()
  })

  it('counts the users of two apps apart even when a slash in an id makes their names alike', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({ clock, mode: 'fail', vibesPerUser: { limit: 1, windowMs: 60_000 } })
    expect(await limiter.takeVibe('app/x', 'alice')).toBe(true)
    expect(await limiter.takeVibe('app', 'x/alice')).toBe(true)
    expect(await limiter.takeVibe('app%2Fx', 'alice')).toBe(true)
    expect(await limiter.takeVibe('app/x', 'alice')).toBe(false)
    expect(await limiter.vibesLeft('app', 'x/alice')).toBe(0)
  })

  it('slides: a slot frees exactly one window after the request that took it', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({ clock, mode: 'fail', requestsPerKey: { limit: 2, windowMs: 1000 } })
    await limiter.acquire()
    await clock.sleep(400)
    await limiter.acquire()
    const error = await limiter.acquire().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LocalRateLimitError)
    // The client's own refusal, not the service's 429.
    expect(error).not.toBeInstanceOf(RateLimitedError)
    expect(error).not.toBeInstanceOf(RinghookApiError)
    expect(error).toMatchObject({ retryAfterMs: 600, kind: 'local_rate_limit', name: 'LocalRateLimitError' })
    await clock.sleep(600)
    await limiter.acquire()
    await expect(limiter.acquire()).rejects.toMatchObject({ retryAfterMs: 400 })
  })

  it('in wait mode, waits for the slot instead', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({ clock, vibesPerUser: { limit: 1, windowMs: 60_000 } })
    await limiter.acquire('u')
    await limiter.acquire('u')
    expect(clock.sleeps).toEqual([60_000])
  })

  it('in wait mode, fails when the wait would pass maxWaitMs', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({ clock, maxWaitMs: 1000, requestsPerKey: { limit: 1, windowMs: 5000 } })
    await limiter.acquire()
    await expect(limiter.acquire()).rejects.toMatchObject({ scope: 'key', retryAfterMs: 5000 })
  })

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    const limiter = createRateLimiter({ requestsPerKey: { limit: 1, windowMs: 60_000 } })
    await limiter.acquire()
    await expect(limiter.acquire(undefined, controller.signal)).rejects.toThrow('stop')
  })

  it('can turn either limit off, and refuses nonsense', async () => {
    const limiter = createRateLimiter({ clock: fakeClock(), mode: 'fail', requestsPerKey: false, vibesPerUser: false })
    for (let i = 0; i < 500; i++) await limiter.acquire('u')
    expect(() => createRateLimiter({ requestsPerKey: { limit: 0, windowMs: 1 } })).toThrow(RinghookConfigError)
  })
})

describe('a gesture reply’s vibe', () => {
  it('takes from the user’s budget without waiting, and never from the key’s', async () => {
    const clock = fakeClock()
    const limiter = createRateLimiter({
      clock,
      vibesPerUser: { limit: 2, windowMs: 60_000 },
      requestsPerKey: { limit: 1, windowMs: 60_000 },
    })
    await limiter.acquire()
    expect(await limiter.vibesLeft('app', 'alice')).toBe(2)
    expect(await limiter.takeVibe('app', 'alice')).toBe(true)
    expect(await limiter.vibesLeft('app', 'alice')).toBe(1)
    expect(await limiter.takeVibe('app', 'alice')).toBe(true)
    expect(await limiter.takeVibe('app', 'alice')).toBe(false)
    expect(await limiter.vibesLeft('app', 'alice')).toBe(0)
    expect(clock.sleeps).toEqual([])
    // The replies used the user's budget: a trigger to her now fails.
    const failing = createRateLimiter({
      clock,
      mode: 'fail',
      requestsPerKey: false,
      vibesPerUser: { limit: 1, windowMs: 60_000 },
    })
    await failing.takeVibe('app', 'bob')
    await expect(failing.acquire('app/bob')).rejects.toMatchObject({ scope: 'user' })
  })
})

describe('the limiter in the client', () => {
  const world = useWorld()

  it('fails fast without sending the request that would exceed the limit', async () => {
    const client = world.client({ rateLimit: { mode: 'fail', vibesPerUser: { limit: 2, windowMs: 60_000 } } })
    await client.vibes.trigger(tap)
    await client.vibes.trigger(tap)
    await expect(client.vibes.trigger(tap)).rejects.toMatchObject({ name: 'LocalRateLimitError', scope: 'user' })
    await client.vibes.trigger({ ...tap, user_app_id: '@me' })
    await client.users.list(APP)
    expect(world.fixture.requests).toHaveLength(4)
  })

  it('waits for a slot, then sends', async () => {
    const client = world.client({ rateLimit: { requestsPerKey: { limit: 2, windowMs: 60_000 } } })
    await client.vibes.patterns()
    await client.installs.list(APP)
    await client.users.list(APP)
    expect(world.clock.sleeps).toEqual([60_000])
    expect(world.fixture.requests).toHaveLength(3)
  })

  it('counts every attempt, retries included, and is shared between clients when passed as a limiter', async () => {
    const limiter = createRateLimiter({
      clock: world.clock,
      mode: 'fail',
      requestsPerKey: { limit: 3, windowMs: 60_000 },
    })
    world.fixture.inject({ status: 429, body: '', headers: { 'retry-after': '0' } })
    await world.client({ rateLimit: limiter }).vibes.patterns()
    await world.client({ rateLimit: limiter }).vibes.patterns()
    await expect(world.client({ rateLimit: limiter }).vibes.patterns()).rejects.toBeInstanceOf(LocalRateLimitError)
  })

  it('pauses the key after a 429, until its Retry-After, for every client sharing the limiter', async () => {
    const limiter = createRateLimiter({ clock: world.clock, requestsPerKey: { limit: 100, windowMs: 60_000 } })
    world.fixture.inject({ status: 429, body: '', headers: { 'retry-after': '7' } })
    await expect(world.client({ rateLimit: limiter, retry: false }).vibes.patterns()).rejects.toBeInstanceOf(
      RateLimitedError,
    )
    await world.client({ rateLimit: limiter }).users.list(APP)
    expect(world.clock.sleeps).toEqual([7000])
  })

  it('pauses only the user after a trigger’s 429', async () => {
    const limiter = createRateLimiter({ clock: world.clock, mode: 'fail' })
    world.fixture.inject({ status: 429, body: '', headers: { 'retry-after': '3' } })
    const client = world.client({ rateLimit: limiter, retry: false })
    await expect(client.vibes.trigger(tap)).rejects.toBeInstanceOf(RateLimitedError)
    await expect(client.vibes.trigger(tap)).rejects.toMatchObject({
      name: 'LocalRateLimitError',
      scope: 'user',
      retryAfterMs: 3000,
    })
    expect(await limiter.vibesLeft(APP, ALICE)).toBe(0)
    await client.users.list(APP)
  })

  it('is off unless asked for; true means the service’s limits', async () => {
    const burst = async (client: ReturnType<typeof world.client>) => {
      for (let i = 0; i < 31; i++) await client.vibes.trigger(tap)
    }
    await burst(world.client())
    expect(world.clock.sleeps).toEqual([])
    await burst(world.client({ rateLimit: true }))
    expect(world.clock.sleeps).toEqual([60_000])
    expect(world.fixture.requests).toHaveLength(62)
  })
})
