import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Receiver, silentLogger, vibe } from '@ringhook/core'
import { webhookEventSchema } from '@ringhook/core/api'
import { verifyWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import { afterEach, describe, expect, it } from 'vitest'
import type { DeliveryAttemptEntry } from '../src/control-api.js'
import { nextEntry, startReceiver, startWorld, type TestReceiver, type World } from './support.js'

let world: World
const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function setup(url: string, type: 'control' | 'preferred_notification' = 'control') {
  world = await startWorld()
  cleanup.push(() => world.sim.close())
  const app = world.sim.apps.create({ key_id: world.key.id, type, webhook_url: url })
  return { sim: world.sim, app }
}

async function receiver(answer?: Parameters<typeof startReceiver>[0], port?: number): Promise<TestReceiver> {
  const started = await startReceiver(answer, port)
  cleanup.push(() => started.close())
  return started
}

/** A real ringhook receiver (core + node adapter) that answers gestures with a vibe. */
async function ringhookApp(secret: () => string, reply = vibe('tap', 'pulse').message('Got it')) {
  const events: string[] = []
  const app: Receiver = createReceiver({ secret: () => secret(), logger: silentLogger })
  app.onAny((event) => void events.push(event.event))
  app.on('gesture', () => reply)
  const server: Server = createServer(ringhook(app, { path: '/webhooks' }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanup.push(() => new Promise((resolve) => server.close(resolve)))
  return { events, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks` }
}

describe('signed delivery', () => {
  it('signs every webhook so a real ringhook receiver accepts it, and records the gesture reply vibe', async () => {
    let secret = ''
    const target = await ringhookApp(() => secret)
    const { sim, app } = await setup(target.url)
    secret = app.secret
    const { install } = await sim.install(app.app_id, world.ada.id, {
      activate: true,
      external_user_id: 'crm-7',
      wait: true,
    })
    const result = await sim.gesture(install.user_app_id, 'double_tap', { wait: true })
    expect(result.forwarded).toBe(true)
    expect(result.delivery).toMatchObject({
      status: 'delivered',
      attempts: [{ attempt: 1, outcome: 'ok', status: 200 }],
    })
    expect(result.vibe).toMatchObject({
      source: 'gesture_reply',
      status: 'delivered',
      sequence: [{ type: 'tap' }, { type: 'pulse' }],
      message: 'Got it',
    })
    // Sent in the spec's lifecycle order, each on its own request: they may arrive in either order.
    expect(sim.log.deliveries().map((delivery) => delivery.event)).toEqual([
      'app.installed',
      'app.activated',
      'gesture',
    ])
    expect([...target.events].sort()).toEqual(['app.activated', 'app.installed', 'gesture'])
    expect(target.events.at(-1)).toBe('gesture')
    const gesture = result.delivery?.payload
    expect(webhookEventSchema.parse(gesture)).toMatchObject({
      event: 'gesture',
      gesture_type: 'double_tap',
      external_user_id: 'crm-7',
      app_id: app.app_id,
      data: {},
    })
  })

  it('sends the spec headers, HMAC over "timestamp.body"', async () => {
    const target = await receiver()
    const { sim, app } = await setup(target.url)
    await sim.install(app.app_id, world.ada.id, { wait: true })
    const [request] = target.received
    expect(request?.headers['content-type']).toBe('application/json')
    const verdict = await verifyWebhook({
      rawBody: request?.body ?? '',
      signature: request?.headers['x-service-signature'] as string,
      timestamp: request?.headers['x-service-timestamp'] as string,
      secret: app.secret,
    })
    expect(verdict.ok).toBe(true)
  })

  it('sends lifecycle events in the spec order, deactivating before an uninstall', async () => {
    const target = await receiver()
    const { sim, app } = await setup(target.url)
    const { install } = await sim.install(app.app_id, world.ada.id, { activate: true })
    await sim.passive(install.user_app_id)
    await sim.activate(install.user_app_id)
    await sim.uninstall(install.user_app_id)
    await sim.idle()
    expect(target.received.map((r) => r.json.event)).toEqual([
      'app.installed',
      'app.activated',
      'control.passive',
      'app.activated',
      'app.deactivated',
      'app.uninstalled',
    ])
    await expect(sim.activate(install.user_app_id)).rejects.toMatchObject({ status: 404 })
  })

  it('refuses transitions the spec does not have', async () => {
    const target = await receiver()
    const { sim, app } = await setup(target.url, 'preferred_notification')
    const { install } = await sim.install(app.app_id, world.ada.id)
    await expect(sim.deactivate(install.user_app_id)).rejects.toMatchObject({ code: 'invalid_transition' })
    await sim.activate(install.user_app_id)
    await expect(sim.passive(install.user_app_id)).rejects.toMatchObject({ code: 'invalid_transition' })
    await expect(sim.gesture(install.user_app_id, 'tap')).rejects.toMatchObject({ code: 'invalid_transition' })
  })
})

describe('retries with scaled time', () => {
  it('retries a 500 after 1 s (scaled) and stops at the 200', async () => {
    const target = await receiver((_, index) => ({ status: index === 0 ? 500 : 200 }))
    const { sim, app } = await setup(target.url)
    const { deliveries } = await sim.install(app.app_id, world.ada.id, { wait: true })
    const [delivery] = deliveries
    expect(delivery).toMatchObject({ status: 'delivered', retry_delays_ms: [10, 50, 300] })
    expect(delivery?.attempts.map((a) => [a.outcome, a.status, a.next_retry_in_ms])).toEqual([
      ['http_error', 500, 10],
      ['ok', 200, null],
    ])
    // Each attempt is signed anew; the payload (and its timestamp) stays the same.
    expect(target.received[1]?.body).toBe(target.received[0]?.body)
  })

  it('delivers to a receiver that was down at the first attempt', async () => {
    const down = await startReceiver()
    const { port, url } = down
    await down.close()
    const { sim, app } = await setup(url)
    const firstFailure = nextEntry<DeliveryAttemptEntry>(sim, 'delivery.attempt')
    const { deliveries } = await sim.install(app.app_id, world.ada.id)
    const failed = await firstFailure
    expect(failed).toMatchObject({
      outcome: 'network_error',
      status: null,
      error: expect.stringContaining('ECONNREFUSED'),
    })
    const target = await receiver(undefined, port)
    await sim.idle()
    expect(sim.log.deliveries()[0]).toMatchObject({ id: deliveries[0]?.id, status: 'delivered' })
    expect(target.received).toHaveLength(1)
  })

  it('counts no answer within 30 s (scaled) as a failure, then gives up after 3 retries', async () => {
    const target = await receiver((_, index) => (index === 0 ? 'hang' : { status: 503 }))
    const { sim, app } = await setup(target.url)
    const { deliveries } = await sim.install(app.app_id, world.ada.id, { wait: true })
    const attempts = deliveries[0]?.attempts ?? []
    expect(deliveries[0]?.status).toBe('failed')
    expect(attempts.map((a) => a.outcome)).toEqual(['timeout', 'http_error', 'http_error', 'http_error'])
    expect(attempts[0]?.error).toContain('300 ms')
    expect(attempts.map((a) => a.next_retry_in_ms)).toEqual([10, 50, 300, null])
    expect(target.received).toHaveLength(4)
  })
})

describe('reset and close', () => {
  it('drops pending retries: idle and waiting actions resolve', async () => {
    const target = await receiver(() => ({ status: 500 }))
    world = await startWorld({ timeScale: 1 })
    cleanup.push(() => world.sim.close())
    const app = world.sim.apps.create({ key_id: world.key.id, webhook_url: target.url })
    const firstAttempt = nextEntry<DeliveryAttemptEntry>(world.sim, 'delivery.attempt')
    const waiting = world.sim.install(app.app_id, world.ada.id, { wait: true })
    expect(await firstAttempt).toMatchObject({ status: 500, next_retry_in_ms: 1000 })
    world.sim.reset()
    await world.sim.idle()
    expect((await waiting).deliveries[0]).toMatchObject({ status: 'retrying', settled_at: null })
    expect(world.sim.state().apps).toEqual([])
    expect(target.received).toHaveLength(1)
  })
})

describe('gestures and their replies', () => {
  it('sends no webhook when the user disabled gesture forwarding', async () => {
    const target = await receiver()
    const { sim, app } = await setup(target.url)
    const { install } = await sim.install(app.app_id, world.ada.id, { activate: true, wait: true })
    sim.updateInstall(install.user_app_id, { permissions: { gestures: false } })
    const result = await sim.gesture(install.user_app_id, 'tap', { wait: true })
    expect(result).toMatchObject({ forwarded: false, delivery: null, vibe: null })
    expect(target.received.map((r) => r.json.event)).toEqual(['app.installed', 'app.activated'])
    expect(sim.log.entries({ type: 'gesture' })).toEqual([
      expect.objectContaining({ forwarded: false, delivery_id: null }),
    ])
  })

  it.each([
    [
      'breaks a trigger rule',
      { success: true, vibe: { sequence: [{ type: 'tap', delay_ms: 5 }] } },
      {},
      'rejected',
      /sequence\.0\.delay_ms/,
    ],
    [
      'needs a message for the notification',
      { success: true, vibe: { sequence: [{ type: 'tap' }], show_ring_ui_notif: true } },
      {},
      'rejected',
      /vibe\.message/,
    ],
    [
      'goes to a user who disabled vibes',
      { success: true, vibe: { sequence: [{ type: 'pulse' }] } },
      { permissions: { vibes: false } },
      'rejected',
      /permission_disabled/,
    ],
    [
      'goes to a muted app',
      { success: true, vibe: { sequence: [{ type: 'pulse' }] } },
      { muted: true },
      'not_enabled',
      /not_enabled: muted/,
    ],
  ] as const)('records a reply vibe that %s', async (_name, reply, change, status, rule) => {
    const target = await receiver(() => ({ status: 200, body: reply }))
    const { sim, app } = await setup(target.url)
    const { install } = await sim.install(app.app_id, world.ada.id, { activate: true, wait: true })
    sim.updateInstall(install.user_app_id, change)
    const result = await sim.gesture(install.user_app_id, 'swipe_up', { wait: true })
    expect(result.delivery?.status).toBe('delivered')
    expect(result.vibe).toMatchObject({ status, rule: expect.stringMatching(rule), delivery_id: result.delivery?.id })
  })

  it('accepts config-added gesture types and refuses unknown ones', async () => {
    world = await startWorld({ gestureTypes: ['pinch'] })
    cleanup.push(() => world.sim.close())
    const app = world.sim.apps.create({ key_id: world.key.id, type: 'device' })
    const { install } = await world.sim.install(app.app_id, world.ada.id, { activate: true })
    expect((await world.sim.gesture(install.user_app_id, 'pinch', { wait: true })).delivery?.status).toBe('skipped')
    await expect(world.sim.gesture(install.user_app_id, 'wave')).rejects.toMatchObject({ status: 400 })
  })
})

describe('notification.responded and secrets', () => {
  it('fires for every response, whatever the response mode', async () => {
    const target = await receiver()
    const { sim, app } = await setup(target.url, 'preferred_notification')
    const { install } = await sim.install(app.app_id, world.ada.id, { activate: true, wait: true })
    for (const mode of ['webhook', 'poll'] as const) {
      const response = await world.trigger({
        app_id: app.app_id,
        user_app_id: install.user_app_id,
        response_mode: mode,
        response_config: { type: 'yes_no_dismiss' },
      })
      const { event_id } = (await response.json()) as { event_id: string }
      await sim.answer(event_id, mode === 'poll' ? 'yes' : 'dismiss', { wait: true })
    }
    const responded = target.received.filter((r) => r.json.event === 'notification.responded')
    expect(responded.map((r) => (r.json.data as { response: string }).response)).toEqual(['dismiss', 'yes'])
  })

  it('regenerates the secret when the webhook URL changes and on request; deliveries use the new one', async () => {
    const first = await receiver()
    const second = await receiver()
    const { sim, app } = await setup(first.url)
    const moved = sim.apps.update(app.app_id, { webhook_url: second.url })
    expect(moved.secret).not.toBe(app.secret)
    expect(sim.apps.update(app.app_id, { webhook_url: second.url }).secret).toBe(moved.secret)
    const rotated = sim.apps.regenerateSecret(app.app_id)
    expect(rotated.secret).not.toBe(moved.secret)
    await sim.install(app.app_id, world.ada.id, { wait: true })
    expect(first.received).toHaveLength(0)
    const [request] = second.received
    const verify = (secret: string) =>
      verifyWebhook({
        rawBody: request?.body ?? '',
        signature: request?.headers['x-service-signature'] as string,
        timestamp: request?.headers['x-service-timestamp'] as string,
        secret,
      })
    expect((await verify(rotated.secret)).ok).toBe(true)
    expect((await verify(app.secret)).ok).toBe(false)
    const changes = sim.log.entries({ type: 'state' }).map((e) => (e.type === 'state' ? e.change : ''))
    expect(changes.filter((c) => c === 'app.secret_regenerated')).toHaveLength(2)
    expect(JSON.stringify(sim.log.entries())).not.toContain(rotated.secret)
  })
})
