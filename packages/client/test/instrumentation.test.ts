import { describe, expect, it } from 'vitest'
import type { ClientAttempt, ClientInstrumentation, LimiterWait } from '../src/index.js'
import { ALICE, APP, useWorld } from './world.js'

const tap = { app_id: APP, user_app_id: ALICE, sequence: [{ type: 'tap' as const }] }

function recorder() {
  const attempts: ClientAttempt[] = []
  const waits: LimiterWait[] = []
  const instrumentation: ClientInstrumentation = {
    request: (attempt) => void attempts.push(attempt),
    limiter: (wait) => void waits.push(wait),
  }
  return { attempts, waits, instrumentation }
}

const summary = (attempts: ClientAttempt[]) =>
  attempts.map(({ method, endpoint, status, attempt, error }) => `${method} ${endpoint} ${status} #${attempt} ${error}`)

describe('client instrumentation', () => {
  const world = useWorld()

  it('reports each attempt by documented endpoint, with its status, never the ids in the path', async () => {
    const { attempts, instrumentation } = recorder()
    const client = world.client({ instrumentation })
    await client.users.list(APP)
    await client.users.list(APP, { state: 'active' })
    await client.users.get(APP, ALICE)
    await client.installs.list(APP)
    await client.installs.me(APP)
    await client.vibes.patterns()
    const { event_id } = await client.vibes.trigger(tap)
    await client.events.response(event_id as string)
    await client.users.get(APP, '0f8e8a39-5f8c-4a55-9c51-7b7cf0f6a0ff').catch(() => undefined)
    expect(summary(attempts)).toEqual([
      'GET /apps/:app_id/users 200 #1 undefined',
      'GET /apps/:app_id/users 200 #1 undefined',
      'GET /apps/:app_id/users/:user_app_id 200 #1 undefined',
      'GET /apps/:app_id/installs 200 #1 undefined',
      'GET /apps/:app_id/installs/@me 200 #1 undefined',
      'GET /vibes/patterns 200 #1 undefined',
      'POST /vibes/trigger 200 #1 undefined',
      'GET /events/:event_id/response 200 #1 undefined',
      'GET /apps/:app_id/users/:user_app_id 404 #1 not_found',
    ])
    expect(JSON.stringify(attempts)).not.toContain(ALICE)
    for (const attempt of attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('reports a 429 and its retry as two attempts, and an attempt that got no answer as status 0', async () => {
    const { attempts, instrumentation } = recorder()
    world.fixture.inject({ status: 429, body: '{"error":{"code":"rate_limited","message":"later"}}' }, { drop: true })
    await world.client({ instrumentation }).vibes.patterns()
    expect(summary(attempts)).toEqual([
      'GET /vibes/patterns 429 #1 rate_limited',
      'GET /vibes/patterns 0 #2 network',
      'GET /vibes/patterns 200 #3 undefined',
    ])
  })

  it('reports how long the client-side limiter held each request, and a refusal', async () => {
    const { waits, instrumentation } = recorder()
    const limited = world.client({ instrumentation, rateLimit: { vibesPerUser: { limit: 1, windowMs: 60_000 } } })
    await limited.vibes.trigger(tap)
    await limited.vibes.trigger(tap)
    const failing = world.client({
      instrumentation,
      rateLimit: { mode: 'fail', requestsPerKey: { limit: 1, windowMs: 1000 } },
    })
    await failing.vibes.patterns()
    await expect(failing.vibes.patterns()).rejects.toMatchObject({ kind: 'local_rate_limit' })
    expect(waits).toEqual([
      { endpoint: '/vibes/trigger', durationMs: 0, refused: false },
      { endpoint: '/vibes/trigger', durationMs: 60_000, refused: false },
      { endpoint: '/vibes/patterns', durationMs: 0, refused: false },
      { endpoint: '/vibes/patterns', durationMs: 0, refused: true },
    ])
  })
})
