import { apiErrorBodySchema, awaitTriggerResultSchema } from '@ringhook/core/api'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeClock } from '../src/index.js'
import { startWorld, type World } from './support.js'

let world: World | undefined
afterEach(() => world?.sim.close())

async function setup(clock = createFakeClock()) {
  world = await startWorld({ clock: clock.now })
  const app = world.sim.apps.create({ key_id: world.key.id, type: 'preferred_notification' })
  const { install } = await world.sim.install(app.app_id, world.ada.id, { activate: true })
  return { world, app, install, clock }
}

describe('rate limits (section 8)', () => {
  it('allows 100 requests per 60 s per key, on every endpoint, then 429 with Retry-After', async () => {
    const { world, clock, app } = await setup()
    for (let i = 0; i < 100; i++) expect((await world.api('/v1/vibes/patterns')).status).toBe(200)
    clock.advance(20_000)
    const limited = await world.api(`/v1/apps/${app.app_id}/installs`)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('40')
    expect(apiErrorBodySchema.parse(await limited.json()).error.code).toBe('rate_limited')
    // Another key is counted on its own.
    const other = world.sim.keys.create({ owner: world.key.owner })
    expect((await world.api('/v1/vibes/patterns', { token: other.token })).status).toBe(200)
    clock.advance(40_001)
    expect((await world.api('/v1/vibes/patterns')).status).toBe(200)
  })

  it('allows 30 vibes per minute per user, whichever key sends them', async () => {
    const { world, clock, app, install } = await setup()
    const other = world.sim.keys.create({ owner: world.key.owner })
    const send = (token?: string) => world.trigger({ app_id: app.app_id, user_app_id: install.user_app_id }, token)
    for (let i = 0; i < 30; i++) expect((await send(i % 2 ? other.token : undefined)).status).toBe(200)
    const limited = await send()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('60')
    clock.advance(60_001)
    expect((await send()).status).toBe(200)
  })
})

describe('await mode', () => {
  it('holds the request until the user answers', async () => {
    const { world, app, install } = await setup()
    const pending = world.sim.nextNotification()
    const request = world.trigger({
      app_id: app.app_id,
      user_app_id: install.user_app_id,
      response_mode: 'await',
      timeout_ms: 60_000,
      response_config: {
        type: 'emoji',
        options: [
          { emoji: '👍', label: 'Yes' },
          { emoji: '👎', label: 'No' },
        ],
      },
    })
    const notification = await pending
    await world.sim.answer(notification.event_id, 'emoji:👎')
    const result = awaitTriggerResultSchema.parse(await (await request).json())
    expect(result).toMatchObject({
      success: true,
      event_id: notification.event_id,
      response: { status: 'responded', value: 'emoji:👎', responded_at: expect.any(String) },
    })
    expect(world.sim.log.notifications()[0]).toMatchObject({ await: 'responded', status: 'responded' })
  })

  it('answers timeout with value null after timeout_ms (scaled), and the notification stays answerable', async () => {
    const { world, app, install } = await setup()
    const response = await world.trigger({
      app_id: app.app_id,
      user_app_id: install.user_app_id,
      response_mode: 'await',
      timeout_ms: 5000,
      response_config: { type: 'yes_no_dismiss' },
    })
    const result = awaitTriggerResultSchema.parse(await response.json())
    expect(result.response).toEqual({ status: 'timeout', value: null })
    expect(world.sim.log.entries({ type: 'notification.timeout' })).toHaveLength(1)
    const { notification } = await world.sim.answer(result.event_id as string, 'yes')
    expect(notification).toMatchObject({ status: 'responded', await: 'timeout' })
  })

  it('refuses an answer that does not fit the response config', async () => {
    const { world, app, install } = await setup()
    const response = await world.trigger({
      app_id: app.app_id,
      user_app_id: install.user_app_id,
      response_mode: 'poll',
      response_config: { type: 'yes_no_dismiss' },
    })
    const { event_id } = (await response.json()) as { event_id: string }
    await expect(world.sim.answer(event_id, 'emoji:👍')).rejects.toMatchObject({ status: 400, code: 'invalid_request' })
    await world.sim.answer(event_id, 'dismiss')
    await expect(world.sim.answer(event_id, 'yes')).rejects.toMatchObject({ status: 409, code: 'conflict' })
  })
})
