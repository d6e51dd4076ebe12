import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createClient, NetworkError, RateLimitedError, ServerError } from '../src/index.js'
import type { Fault } from './fixture-server.js'
import { ALICE, APP, KEY, useWorld } from './world.js'

const tap = { app_id: APP, user_app_id: ALICE, sequence: [{ type: 'tap' as const }] }
const tooMany = (retryAfter?: string): Fault => ({
  status: 429,
  body: '{"error":{"code":"rate_limited","message":"later"}}',
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
})

/** A port nothing listens on: connections to it are refused before any byte is sent. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('retries', () => {
  const world = useWorld()

  it('retries a 429 after the Retry-After delay, then succeeds', async () => {
    world.fixture.inject(tooMany('2'), tooMany('1'))
    const patterns = await world.client().vibes.patterns()
    expect(patterns.patterns).toEqual(['tap', 'pulse'])
    expect(world.fixture.requests).toHaveLength(3)
    expect(world.clock.sleeps).toEqual([2000, 1000])
    expect(world.logger.lines.filter((l) => l.message === 'Retrying a ringhook API request')).toHaveLength(2)
  })

  it('reads Retry-After as an HTTP date too', async () => {
    const at = new Date(world.clock.now() + 5000).toUTCString()
    world.fixture.inject(tooMany(at))
    await world.client().vibes.patterns()
    expect(world.clock.sleeps[0]).toBeGreaterThan(3000)
    expect(world.clock.sleeps[0]).toBeLessThanOrEqual(5000)
  })

  it('backs off exponentially with jitter when there is no Retry-After', async () => {
    world.fixture.inject(tooMany(), tooMany(), tooMany())
    const client = world.client({ retry: { maxAttempts: 4, baseDelayMs: 100, random: () => 1 } })
    await client.vibes.patterns()
    expect(world.clock.sleeps).toEqual([100, 200, 400])
    world.clock.sleeps.length = 0
    world.fixture.inject(tooMany(), tooMany())
    await world.client({ retry: { baseDelayMs: 100, random: () => 0 } }).vibes.patterns()
    expect(world.clock.sleeps).toEqual([50, 100])
  })

  it('gives up after maxAttempts with the last 429', async () => {
    world.fixture.inject(tooMany('1'), tooMany('1'), tooMany('3'))
    const error = await world
      .client({ retry: { maxAttempts: 3 } })
      .vibes.patterns()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ retryAfterMs: 3000 })
    expect(world.fixture.requests).toHaveLength(3)
  })

  it('does not wait out a Retry-After longer than maxRetryAfterMs', async () => {
    world.fixture.inject(tooMany('120'))
    await expect(world.client().vibes.patterns()).rejects.toMatchObject({ retryAfterMs: 120_000 })
    expect(world.clock.sleeps).toEqual([])
  })

  it('resends a trigger refused with 429: no vibe was sent', async () => {
    world.fixture.inject(tooMany('1'))
    const result = await world.client().vibes.trigger(tap)
    expect(result.success).toBe(true)
    expect(world.fixture.requests.filter((r) => r.path === '/v1/vibes/trigger')).toHaveLength(2)
  })

  it('never resends a trigger after a connection dropped mid-request: it may have vibed', async () => {
    world.fixture.inject({ drop: true })
    const error = await world
      .client()
      .vibes.trigger(tap)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ notSent: false })
    expect(world.fixture.requests).toHaveLength(1)
  })

  it('never resends a trigger after a 5xx', async () => {
    world.fixture.inject({ status: 503, body: '' })
    await expect(world.client().vibes.trigger(tap)).rejects.toBeInstanceOf(ServerError)
    expect(world.fixture.requests).toHaveLength(1)
  })

  it('does not retry other errors of read requests either', async () => {
    world.fixture.inject({ status: 500, body: '' })
    await expect(world.client().vibes.patterns()).rejects.toBeInstanceOf(ServerError)
    expect(world.fixture.requests).toHaveLength(1)
  })

  it('resends a trigger whose connection was refused: it never left', async () => {
    const port = await closedPort()
    const attempts: string[] = []
    const client = createClient({
      apiKey: KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      clock: world.clock,
      logger: world.logger,
      fetch: (input, init) => {
        attempts.push(String(input))
        return fetch(input, init)
      },
    })
    const error = await client.vibes.trigger(tap).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ notSent: true, message: expect.stringContaining('ECONNREFUSED') })
    expect(attempts).toHaveLength(3)
    expect(world.clock.sleeps).toHaveLength(2)
  })

  it('stops retrying when the signal aborts during the backoff', async () => {
    world.fixture.inject(tooMany('1'), tooMany('1'))
    const controller = new AbortController()
    world.clock.onSleep = () => controller.abort(new Error('user gave up'))
    await expect(world.client().vibes.patterns({ signal: controller.signal })).rejects.toThrow('user gave up')
    expect(world.fixture.requests).toHaveLength(1)
  })
})
