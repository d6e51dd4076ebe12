import { apiErrorBodySchema } from '@ringhook/core/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App, Delivery, Install, Key, LogEntry, Notification, Snapshot, User, Vibe } from '../src/control-api.js'
import { createSimulator } from '../src/index.js'
import { startReceiver, startWorld, type TestReceiver, type World } from './support.js'

let world: World
let target: TestReceiver

beforeAll(async () => {
  target = await startReceiver((request) =>
    request.json.event === 'gesture'
      ? { status: 200, body: { success: true, vibe: { sequence: [{ type: 'pulse' }], message: 'Hello' } } }
      : { status: 200 },
  )
  world = await startWorld()
})
afterAll(async () => {
  await world.sim.close()
  await target.close()
})

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status).toBe(status)
  return (await response.json()) as T
}

/** Reads SSE messages from a streaming fetch until `count` entries arrived. */
async function readEvents(response: Response, count: number): Promise<{ ids: string[]; entries: LogEntry[] }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const ids: string[] = []
  const entries: LogEntry[] = []
  while (entries.length < count) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const message = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const id = /^id: (.*)$/m.exec(message)?.[1]
      const data = /^data: (.*)$/m.exec(message)?.[1]
      if (id && data) {
        ids.push(id)
        entries.push(JSON.parse(data))
      }
      end = buffer.indexOf('\n\n')
    }
  }
  await reader.cancel()
  return { ids, entries }
}

describe('extra routes (the web page)', () => {
  it('answers its own paths first but never shadows the control API', async () => {
    const sim = await createSimulator({
      handler: (request, response) => {
        if (request.url !== '/' && !request.url?.startsWith('/_sim')) return false
        response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>ring</h1>')
        return true
      },
    })
    try {
      expect(await (await fetch(`${sim.url}/`)).text()).toBe('<h1>ring</h1>')
      expect((await fetch(`${sim.url}/_sim/state`)).headers.get('content-type')).toContain('application/json')
      expect((await fetch(`${sim.url}/v1/vibes/patterns`)).status).toBe(401)
    } finally {
      await sim.close()
    }
  })
})

describe('control API over HTTP', () => {
  let app: App
  let user: User
  let install: Install

  it('creates keys, users and apps, and shows them in the state with secrets', async () => {
    const { control } = world
    const key = await json<Key>(await control('/keys', 'POST', { owner: 'dev_http' }), 201)
    expect(key).toMatchObject({ owner: 'dev_http', user_id: null, token: expect.stringMatching(/^rk_sim_/) })
    user = await json<User>(await control('/users', 'POST', { name: 'Grace' }), 201)
    expect(await json<Key>(await control(`/keys/${key.id}`, 'PATCH', { user_id: user.id }))).toMatchObject({
      user_id: user.id,
    })
    app = await json<App>(
      await control('/apps', 'POST', { key_id: key.id, name: 'Http', webhook_url: target.url }),
      201,
    )
    expect(app).toMatchObject({ owner: 'dev_http', type: 'control', secret: expect.stringMatching(/^whsec_/) })
    const state = await json<Snapshot>(await control('/state'))
    expect(state.apps.find((a) => a.app_id === app.app_id)?.secret).toBe(app.secret)
    expect(state.settings).toMatchObject({
      api_url: world.sim.apiUrl,
      retry_delays_ms: [1000, 5000, 30000],
      time_scale: 0.01,
    })
  })

  it('installs, changes state, performs a gesture and reads the vibe', async () => {
    const { control } = world
    const installed = await json<{ install: Install; deliveries: Delivery[] }>(
      await control(`/apps/${app.app_id}/installs`, 'POST', { user_id: user.id, activate: true, wait: true }),
      201,
    )
    install = installed.install
    expect(installed.deliveries.map((d) => [d.event, d.status])).toEqual([
      ['app.installed', 'delivered'],
      ['app.activated', 'delivered'],
    ])
    const gesture = await json<{ forwarded: boolean; vibe: Vibe }>(
      await control(`/installs/${install.user_app_id}/gesture`, 'POST', { gesture_type: 'long_press', wait: true }),
    )
    expect(gesture).toMatchObject({ forwarded: true, vibe: { status: 'delivered', message: 'Hello' } })
    const passive = await json<{ install: Install }>(await control(`/installs/${install.user_app_id}/passive`, 'POST'))
    expect(passive.install.state).toBe('passive')
    const refused = await control(`/installs/${install.user_app_id}/gesture`, 'POST', { gesture_type: 'tap' })
    expect(refused.status).toBe(409)
    expect(apiErrorBodySchema.parse(await refused.json()).error.code).toBe('invalid_transition')
    await control(`/installs/${install.user_app_id}/activate`, 'POST', {})
  })

  it('changes permissions and barriers, answers a notification through the API', async () => {
    const { control } = world
    const patched = await json<Install>(
      await control(`/installs/${install.user_app_id}`, 'PATCH', { permissions: { gestures: false }, muted: true }),
    )
    expect(patched).toMatchObject({ permissions: { vibes: true, gestures: false }, muted: true })
    expect(await json<User>(await control(`/users/${user.id}`, 'PATCH', { ring_off: true }))).toMatchObject({
      ring_off: true,
    })
    const notify = world.sim.apps.create({
      key_id: world.key.id,
      type: 'preferred_notification',
      webhook_url: target.url,
    })
    const { install: mine } = await world.sim.install(notify.app_id, world.ada.id, { activate: true })
    const trigger = await world.trigger({
      app_id: notify.app_id,
      user_app_id: mine.user_app_id,
      response_mode: 'poll',
      response_config: { type: 'yes_no_dismiss' },
    })
    const { event_id } = (await trigger.json()) as { event_id: string }
    const pending = await json<{ notifications: Notification[] }>(await control('/notifications?status=pending'))
    expect(pending.notifications.map((n) => n.event_id)).toEqual([event_id])
    const answered = await json<{ notification: Notification; delivery: Delivery }>(
      await control(`/notifications/${event_id}/answer`, 'POST', { response: 'yes', wait: true }),
    )
    expect(answered.notification).toMatchObject({ status: 'responded', response: 'yes' })
    expect(answered.delivery).toMatchObject({ event: 'notification.responded', status: 'delivered' })
    const bad = await control(`/notifications/${event_id}/answer`, 'POST', { response: 'maybe' })
    expect(bad.status).toBe(400)
  })

  it('regenerates a secret, on request and with a new webhook URL', async () => {
    const { control } = world
    const rotated = await json<App>(await control(`/apps/${app.app_id}/regenerate-secret`, 'POST'))
    expect(rotated.secret).not.toBe(app.secret)
    const moved = await json<App>(await control(`/apps/${app.app_id}`, 'PATCH', { webhook_url: `${target.url}?v=2` }))
    expect(moved.secret).not.toBe(rotated.secret)
  })

  it('serves the log, single deliveries and idle', async () => {
    const { control } = world
    await json(await control('/idle'))
    const log = await json<{ entries: LogEntry[]; deliveries: Delivery[]; vibes: Vibe[] }>(await control('/log'))
    expect(log.deliveries.length).toBeGreaterThan(0)
    expect(log.vibes.some((v) => v.source === 'gesture_reply')).toBe(true)
    const seqs = log.entries.map((e) => e.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    const attempts = await json<{ entries: LogEntry[] }>(await control('/log?type=delivery.attempt&limit=2'))
    expect(attempts.entries.map((e) => e.type)).toEqual(['delivery.attempt', 'delivery.attempt'])
    const first = log.deliveries[0] as Delivery
    expect(await json<Delivery>(await control(`/deliveries/${first.id}`))).toMatchObject({ id: first.id })
    const text = JSON.stringify(log)
    for (const secret of world.sim.state().apps.map((a) => a.secret)) expect(text).not.toContain(secret)
    expect((await control('/log?since=-1')).status).toBe(400)
  })

  it('answers errors with the error body, and no CORS headers', async () => {
    const { control } = world
    const missing = await control('/installs/00000000-0000-4000-8000-000000000000/activate', 'POST')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBeNull()
    const invalid = await control('/apps', 'POST', { key_id: world.key.id, type: 'toaster' })
    expect(apiErrorBodySchema.parse(await invalid.json()).error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('type'),
    })
    const options = await control('/apps', 'OPTIONS')
    expect(options.status).toBe(405)
    expect(options.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('streams new entries as SSE and replays after Last-Event-ID', async () => {
    const stream = await fetch(`${world.sim.url}/_sim/events`)
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    const created = world.sim.users.create({ name: 'Linus' })
    const live = await readEvents(stream, 1)
    expect(live.entries[0]).toMatchObject({ type: 'state', change: 'user.created', id: created.id })
    const lastId = Number(live.ids[0])
    world.sim.users.create({ name: 'Margaret' })
    const replay = await fetch(`${world.sim.url}/_sim/events`, { headers: { 'last-event-id': String(lastId - 1) } })
    const replayed = await readEvents(replay, 2)
    expect(replayed.ids).toEqual([String(lastId), String(lastId + 1)])
    expect(replayed.entries[1]).toMatchObject({ type: 'state', change: 'user.created', object: { name: 'Margaret' } })
    const { last_seq } = await json<{ last_seq: number }>(await world.control('/log?type=gesture'))
    expect(last_seq).toBe(lastId + 1)
    const fromQuery = await readEvents(await fetch(`${world.sim.url}/_sim/events?since=${last_seq - 1}`), 1)
    expect(fromQuery.ids).toEqual([String(last_seq)])
  })

  it('resets everything but the settings', async () => {
    expect(await json(await world.control('/reset', 'POST'))).toEqual({ ok: true })
    const state = await json<Snapshot>(await world.control('/state'))
    expect(state).toMatchObject({ keys: [], users: [], apps: [], installs: [] })
    expect((await world.api('/v1/vibes/patterns')).status).toBe(401)
  })
})
