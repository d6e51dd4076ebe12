import {
  apiErrorBodySchema,
  eventResponseRecordSchema,
  installListSchema,
  ownInstallSchema,
  triggerResultSchema,
  userDetailSchema,
  userListSchema,
  vibePatternsSchema,
} from '@ringhook/core/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App, Install } from '../src/control-api.js'
import { startWorld, type World } from './support.js'

let world: World
let app: App
let notify: App
let mine: Install
let other: Install
let notifyMine: Install

beforeAll(async () => {
  world = await startWorld()
  const { sim, key, ada } = world
  app = sim.apps.create({ key_id: key.id, name: 'Control' })
  notify = sim.apps.create({ key_id: key.id, type: 'preferred_notification' })
  mine = (await sim.install(app.app_id, ada.id, { activate: true })).install
  const grace = sim.users.create({ name: 'Grace' })
  other = (await sim.install(app.app_id, grace.id)).install
  notifyMine = (await sim.install(notify.app_id, ada.id, { activate: true })).install
})
afterAll(() => world.sim.close())

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = apiErrorBodySchema.parse(await response.json())
  expect(body.error.code).toBe(code)
  expect(body.error.message.length).toBeGreaterThan(0)
}

describe('the seven endpoints', () => {
  it('lists installs, with and without the /v1 prefix', async () => {
    for (const prefix of ['/v1', '']) {
      const response = await world.api(`${prefix}/apps/${app.app_id}/installs`)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-request-id')).toMatch(/^req_/)
      const { installs } = installListSchema.parse(await response.json())
      expect(installs).toEqual([
        { user_app_id: mine.user_app_id, is_active: true, installed_at: mine.installed_at },
        { user_app_id: other.user_app_id, is_active: false, installed_at: other.installed_at },
      ])
    }
  })

  it("returns the caller's own install for @me (also URL-encoded)", async () => {
    for (const me of ['@me', '%40me']) {
      const response = await world.api(`/v1/apps/${app.app_id}/installs/${me}`)
      expect(ownInstallSchema.parse(await response.json())).toEqual({
        user_app_id: mine.user_app_id,
        is_active: true,
        installed_at: mine.installed_at,
        app_id: app.app_id,
      })
    }
  })

  it('lists users with a state filter', async () => {
    const all = userListSchema.parse(await (await world.api(`/v1/apps/${app.app_id}/users`)).json())
    expect(all.users.map((u) => u.state)).toEqual(['active', 'inactive'])
    const active = userListSchema.parse(await (await world.api(`/v1/apps/${app.app_id}/users?state=active`)).json())
    expect(active.users).toEqual([{ user_app_id: mine.user_app_id, state: 'active', installed_at: mine.installed_at }])
    await expectError(await world.api(`/v1/apps/${app.app_id}/users?state=asleep`), 400, 'invalid_request')
  })

  it('returns one user with permissions, by id or @me', async () => {
    world.sim.updateInstall(other.user_app_id, { permissions: { gestures: false } })
    const byId = userDetailSchema.parse(
      await (await world.api(`/v1/apps/${app.app_id}/users/${other.user_app_id}`)).json(),
    )
    expect(byId).toMatchObject({ state: 'inactive', app_id: app.app_id, permissions: { vibes: true, gestures: false } })
    const me = userDetailSchema.parse(await (await world.api(`/v1/apps/${app.app_id}/users/@me`)).json())
    expect(me.user_app_id).toBe(mine.user_app_id)
  })

  it('describes the vibe patterns', async () => {
    const patterns = vibePatternsSchema.parse(await (await world.api('/v1/vibes/patterns')).json())
    expect(patterns).toEqual({
      patterns: ['tap', 'pulse'],
      max_sequence_length: 3,
      timing: { min_delay_ms: 150, max_delay_ms: 2000, default_delay_ms: 300 },
    })
  })

  it('triggers in webhook mode (the default) with the delivery object', async () => {
    const response = await world.trigger({ app_id: app.app_id, user_app_id: mine.user_app_id, message: 'Hi' })
    expect(response.status).toBe(200)
    const result = triggerResultSchema.parse(await response.json())
    expect(result).toMatchObject({
      success: true,
      response_mode: 'webhook',
      delivery: { method: 'ring', status: 'delivered', latency_ms: 25, app_state: 'active' },
    })
    expect(result.event_id).toMatch(/^evt_/)
    expect(result).not.toHaveProperty('warnings')
    expect(world.sim.log.vibes().at(-1)).toMatchObject({ source: 'trigger', status: 'delivered', message: 'Hi' })
  })

  it('polls a notification from pending to responded', async () => {
    const body = {
      app_id: notify.app_id,
      user_app_id: '@me',
      response_mode: 'poll',
      response_config: { type: 'yes_no_dismiss' },
    }
    const result = triggerResultSchema.parse(await (await world.trigger(body)).json())
    const poll = async () =>
      eventResponseRecordSchema.parse(await (await world.api(`/v1/events/${result.event_id}/response`)).json())
    expect(await poll()).toEqual({ event_id: result.event_id, status: 'pending', response: null, responded_at: null })
    await world.sim.answer(result.event_id as string, 'no')
    expect(await poll()).toMatchObject({ status: 'responded', response: 'no', responded_at: expect.any(String) })
  })

  it('answers an unknown event with 404', async () => {
    await expectError(await world.api('/v1/events/evt_nope/response'), 404, 'not_found')
  })
})

describe('section 7 errors', () => {
  it('401 without a key or with an unknown one', async () => {
    await expectError(await world.api(`/v1/apps/${app.app_id}/installs`, { token: null }), 401, 'unauthorized')
    await expectError(await world.api('/v1/vibes/patterns', { token: 'rk_sim_unknown' }), 401, 'unauthorized')
  })

  it("404 for another owner's app, on every app endpoint and the trigger", async () => {
    const stranger = world.sim.keys.create()
    const token = stranger.token
    for (const path of ['installs', 'installs/@me', 'users', `users/${mine.user_app_id}`]) {
      await expectError(await world.api(`/v1/apps/${app.app_id}/${path}`, { token }), 404, 'not_found')
    }
    await expectError(
      await world.trigger({ app_id: app.app_id, user_app_id: mine.user_app_id }, token),
      404,
      'not_found',
    )
    await expectError(await world.api(`/v1/apps/app_missing/installs`), 404, 'not_found')
  })

  it('a second key of the same owner sees the apps', async () => {
    const sibling = world.sim.keys.create({ owner: world.key.owner })
    expect((await world.api(`/v1/apps/${app.app_id}/installs`, { token: sibling.token })).status).toBe(200)
  })

  it('400 for @me when the key is not linked, 404 when not installed', async () => {
    const unlinked = world.sim.keys.create({ owner: world.key.owner })
    const token = unlinked.token
    await expectError(await world.api(`/v1/apps/${app.app_id}/installs/@me`, { token }), 400, 'key_not_linked')
    await expectError(await world.api(`/v1/apps/${app.app_id}/users/@me`, { token }), 400, 'key_not_linked')
    await expectError(await world.trigger({ app_id: app.app_id, user_app_id: '@me' }, token), 400, 'key_not_linked')
    const loner = world.sim.users.create()
    world.sim.keys.link(unlinked.id, loner.id)
    await expectError(await world.api(`/v1/apps/${app.app_id}/installs/@me`, { token }), 404, 'not_found')
    await expectError(await world.api(`/v1/apps/${app.app_id}/users/@me`, { token }), 404, 'not_found')
    await expectError(await world.trigger({ app_id: app.app_id, user_app_id: '@me' }, token), 403, 'not_installed')
  })

  it('400 for a malformed user_app_id, 404 for an unknown one', async () => {
    await expectError(await world.api(`/v1/apps/${app.app_id}/users/not-a-uuid`), 400, 'invalid_request')
    const unknown = '00000000-0000-4000-8000-000000000000'
    await expectError(await world.api(`/v1/apps/${app.app_id}/users/${unknown}`), 404, 'not_found')
    await expectError(await world.trigger({ app_id: app.app_id, user_app_id: unknown }), 403, 'not_installed')
  })

  it.each([
    ['missing sequence', { sequence: undefined }, 'sequence'],
    ['four steps', { sequence: Array(4).fill({ type: 'tap' }) }, 'sequence'],
    ['delay out of range', { sequence: [{ type: 'tap', delay_ms: 100 }] }, 'sequence.0.delay_ms'],
    ['unknown pattern', { sequence: [{ type: 'buzz' }] }, 'sequence.0.type'],
    ['notification without message', { show_ring_ui_notif: true }, 'message'],
    ['message over 80 characters', { message: 'x'.repeat(81) }, 'message'],
    ['timeout_ms below 5000', { response_mode: 'await', timeout_ms: 4999 }, 'timeout_ms'],
    ['timeout_ms above 60000', { response_mode: 'await', timeout_ms: 60001 }, 'timeout_ms'],
    ['unknown response_mode', { response_mode: 'carrier_pigeon' }, 'response_mode'],
  ])('400 for %s, naming the field', async (_name, override, field) => {
    const response = await world.trigger({ app_id: app.app_id, user_app_id: mine.user_app_id, ...override })
    expect(response.status).toBe(400)
    const body = apiErrorBodySchema.parse(await response.json())
    expect(body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(field) })
  })

  it('400 for invalid JSON, fewer than 2 emoji options, or a response_config on a control app', async () => {
    const bad = await world.api('/v1/vibes/trigger', { method: 'POST', body: '{"app_id":' })
    await expectError(bad, 400, 'invalid_request')
    const one = { type: 'emoji', options: [{ emoji: '👍', label: 'ok' }] }
    await expectError(
      await world.trigger({ app_id: notify.app_id, user_app_id: '@me', response_config: one }),
      400,
      'invalid_request',
    )
    const ask = { type: 'yes_no_dismiss' }
    await expectError(
      await world.trigger({ app_id: app.app_id, user_app_id: '@me', response_config: ask }),
      400,
      'invalid_request',
    )
  })

  it('403 permission_disabled when the user disabled vibes', async () => {
    world.sim.updateInstall(other.user_app_id, { permissions: { vibes: false } })
    await expectError(
      await world.trigger({ app_id: app.app_id, user_app_id: other.user_app_id }),
      403,
      'permission_disabled',
    )
    world.sim.updateInstall(other.user_app_id, { permissions: { vibes: true } })
  })

  it('404 for an unknown path, 405 for a wrong method', async () => {
    await expectError(await world.api('/v1/nothing'), 404, 'not_found')
    const wrong = await world.api('/v1/vibes/patterns', { method: 'POST', body: '{}' })
    await expectError(wrong, 405, 'method_not_allowed')
    expect(wrong.headers.get('allow')).toBe('GET')
  })
})

describe('truncation and not_enabled', () => {
  it('keeps 5 options, cuts labels to 15 characters and warns, with status 200', async () => {
    const options = ['😀', '😃', '😄', '😁', '😆', '😅', '🤣'].map((emoji, i) => ({
      emoji,
      label: i === 1 ? 'Absolutely wonderful' : `opt ${i}`,
    }))
    const response = await world.trigger({
      app_id: notify.app_id,
      user_app_id: notifyMine.user_app_id,
      response_mode: 'poll',
      response_config: { type: 'emoji', options },
    })
    expect(response.status).toBe(200)
    const result = triggerResultSchema.parse(await response.json())
    expect(result.success).toBe(true)
    expect(result.warnings).toHaveLength(2)
    expect(result.warnings?.[0]).toMatch(/7 options given.*dropped 😅 "opt 5", 🤣 "opt 6"/)
    expect(result.warnings?.[1]).toContain('"Absolutely wond"')
    const notification = world.sim.log.notifications().find((n) => n.event_id === result.event_id)
    expect(notification?.response_config).toEqual({
      type: 'emoji',
      options: [...options.slice(0, 5).map((o, i) => (i === 1 ? { ...o, label: 'Absolutely wond' } : o))],
    })
  })

  it.each([
    ['muted', { install: { muted: true } }],
    ['no priority slot', { install: { priority_slot: false } }],
    ['ring off', { user: { ring_off: true } }],
    ['companion app closed', { user: { companion_closed: true } }],
  ] as const)('%s: success false in every mode, reason hidden but logged', async (_name, change) => {
    const { sim, ada } = world
    const undo = { install: { muted: false, priority_slot: true }, user: { ring_off: false, companion_closed: false } }
    if ('install' in change) sim.updateInstall(notifyMine.user_app_id, change.install)
    else sim.users.update(ada.id, change.user)
    const base = {
      app_id: notify.app_id,
      user_app_id: notifyMine.user_app_id,
      response_config: { type: 'yes_no_dismiss' },
    }
    for (const mode of ['webhook', 'poll'] as const) {
      const result = triggerResultSchema.parse(await (await world.trigger({ ...base, response_mode: mode })).json())
      expect(result).toEqual({ success: false, event_id: null, response_mode: mode, delivery_status: 'not_enabled' })
    }
    const awaited = await (await world.trigger({ ...base, response_mode: 'await' })).json()
    expect(awaited).toEqual({
      success: false,
      event_id: null,
      response_mode: 'await',
      response: { status: 'not_enabled', value: null },
    })
    expect(sim.log.vibes().at(-1)).toMatchObject({
      status: 'not_enabled',
      rule: expect.stringMatching(/^not_enabled: /),
    })
    sim.updateInstall(notifyMine.user_app_id, undo.install)
    sim.users.update(ada.id, undo.user)
  })

  it('logs one request entry per API call, without the token', async () => {
    await world.api('/v1/vibes/patterns')
    const entry = world.sim.log.entries({ type: 'request' }).at(-1)
    expect(entry).toMatchObject({ method: 'GET', path: '/v1/vibes/patterns', status: 200, key_id: world.key.id })
    expect(JSON.stringify(world.sim.log.entries())).not.toContain(world.key.token)
  })
})
