import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger, type UnknownEvent, type WebhookEvent } from '@ringhook/core'
import { EVENT_NAMES } from '@ringhook/core/api'
import { ringhook } from '@ringhook/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Install } from '../src/control-api.js'
import { startWorld, type World } from './support.js'

// `sim.sendEvent` sends any event of core's list, as the service would sign it, to a real receiver.
let world: World
let server: Server
let install: Install
const received: Array<WebhookEvent | UnknownEvent> = []

beforeAll(async () => {
  world = await startWorld()
  let secret = ''
  const receiver = createReceiver({ secret: () => secret, logger: silentLogger })
  receiver.onAny((event) => void received.push(event))
  server = createServer(ringhook(receiver, { path: '/webhooks' }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  const app = world.sim.apps.create({ key_id: world.key.id, type: 'control', webhook_url: url })
  secret = app.secret
  install = (await world.sim.install(app.app_id, world.ada.id, { activate: true, wait: true })).install
  received.length = 0
})
afterAll(async () => {
  await world.sim.close()
  await new Promise((resolve) => server.close(resolve))
})

describe('sendEvent', () => {
  it.each(EVENT_NAMES)('sends %s from its sample, and a receiver accepts it', async (name) => {
    const { delivery } = await world.sim.sendEvent(install.user_app_id, name, {}, { wait: true })
    expect(delivery).toMatchObject({ event: name, status: 'delivered' })
    expect(received.at(-1)).toMatchObject({ event: name, user_app_id: install.user_app_id })
  })

  it('leaves the simulated world as it was', async () => {
    await world.sim.sendEvent(install.user_app_id, 'app.deactivated', {}, { wait: true })
    expect(world.sim.state().installs.find((i) => i.user_app_id === install.user_app_id)?.state).toBe('active')
  })

  it('sets the fields given, data merged over the sample', async () => {
    await world.sim.sendEvent(
      install.user_app_id,
      'notification.responded',
      { data: { event_id: 'evt_merged' }, note: 1 },
      { wait: true },
    )
    // A fresh event_id: the receiver deduplicates on it, and the sample's was sent above.
    expect(received.at(-1)).toMatchObject({ note: 1, data: { event_id: 'evt_merged', response: 'yes' } })
  })

  it('refuses an unknown event, a field its schema refuses and an envelope field, as 400s', async () => {
    const send = (event: string, fields: Record<string, unknown>) =>
      world.control(`/installs/${install.user_app_id}/events`, 'POST', { event, fields })
    const unknown = await send('slot.nothing', {})
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('must be one of gesture')
    const broken = await send('notification.responded', { data: { response: 'maybe' } })
    expect(broken.status).toBe(400)
    expect(await broken.text()).toContain('fields: ')
    const envelope = await send('gesture', { app_id: 'app_other' })
    expect(envelope.status).toBe(400)
    expect(await envelope.text()).toContain('app_id come from the install')
  })

  it('sends over the control API', async () => {
    const response = await world.control(`/installs/${install.user_app_id}/events`, 'POST', {
      event: 'gesture',
      fields: { gesture_type: 'swipe_up' },
      wait: true,
    })
    expect(response.status).toBe(200)
    expect(received.at(-1)).toMatchObject({ event: 'gesture', gesture_type: 'swipe_up' })
  })
})
