// The simulator against each example app (node:http, Express, Hono, Fastify, Koa, NestJS) as written: the lifecycle,
// retries, dedup, secret rotation and slow handlers, over real HTTP on 127.0.0.1.
import { gestureReplySchema } from '@ringhook/core/api'
import { createSimulator } from '@ringhook/simulator'
import type { Delivery } from '@ringhook/simulator/control-api'
import { events, sendWebhook } from '@ringhook/testing'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { gate } from '../support/gate.js'
import { holdPort } from '../support/ports.js'
import { examples, type RunningExample } from './support/examples.js'
import { type Handled, nextEntry, recordHandled, recordingLogger } from './support/observe.js'
import { tuning } from './support/tuning.js'
import { current, FAST, FASTER, SECRET, startWorld, type World } from './support/world.js'

const LIFECYCLE = ['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled']

let cleanup: Array<() => Promise<void>> = []
let printed: MockInstance<typeof console.log>

beforeEach(() => {
  // The examples log lifecycle events with console.log; the tests read those lines.
  printed = vi.spyOn(console, 'log').mockImplementation(() => {})
})

afterEach(async () => {
  for (const close of cleanup.reverse()) await close()
  cleanup = []
  tuning.options = {}
  printed.mockRestore()
})

async function world(...args: Parameters<typeof startWorld>): Promise<World> {
  const started = await startWorld(...args)
  cleanup.push(started.close)
  return started
}

const lines = () => printed.mock.calls.map((call) => String(call[0]))
const ok = (delivery: Delivery) => delivery.attempts.at(-1)?.outcome === 'ok' && delivery.status === 'delivered'
const gestures = (handled: Handled[]) => handled.filter((h) => h.event === 'gesture')

describe.each(examples)('$name example against the simulator', (target) => {
  it('gets the whole lifecycle in the spec order, each event once and acknowledged 2xx at the first attempt', async () => {
    const w = await world(target)
    const { install } = await w.sim.install(w.appId, w.userId, { activate: true, wait: true })
    const uai = install.user_app_id
    await w.sim.passive(uai, { wait: true })
    await w.sim.deactivate(uai, { wait: true })
    await w.sim.uninstall(uai, { wait: true })

    const deliveries = w.sim.log.deliveries()
    expect(deliveries.map((d) => d.event)).toEqual(LIFECYCLE)
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: 'delivered', url: w.example.url })
      expect(delivery.attempts).toHaveLength(1)
      expect(delivery.attempts[0]?.status).toBeGreaterThanOrEqual(200)
      expect(delivery.attempts[0]?.status).toBeLessThan(300)
    }
    expect(w.handled).toEqual(LIFECYCLE.map((event) => ({ event, user_app_id: uai, detail: undefined })))
    expect(lines()).toEqual(LIFECYCLE.map((event) => `[app] ${event} for user ${uai}`))
  })

  it('answers gestures with the vibe the example returns, recorded as delivered to the ring', async () => {
    const w = await world(target)
    const { install } = await w.sim.install(w.appId, w.userId, { activate: true, wait: true })
    const { vibe, delivery } = await w.sim.gesture(install.user_app_id, 'double_tap', { wait: true })
    expect(delivery?.attempts).toHaveLength(1)
    expect(vibe).toMatchObject({
      source: 'gesture_reply',
      status: 'delivered',
      sequence: [{ type: 'tap' }, { type: 'pulse' }],
      message: 'Got your double_tap',
    })
  })

  it('answers a gesture whose name is too long to quote with a reply the trigger rules accept', async () => {
    const w = await world(target)
    const { install } = await w.sim.install(w.appId, w.userId, { activate: true, wait: true })
    // The spec puts no limit on gesture_type; quoted whole, this one would push the message past 80 characters.
    for (const gestureType of [`custom_${'x'.repeat(65)}`, '🤚'.repeat(90)]) {
      const event = events.gesture({ app_id: w.appId, user_app_id: install.user_app_id, gesture_type: gestureType })
      const answer = await sendWebhook(w.example.url, event, { secret: SECRET })
      expect(answer.status).toBe(200)
      const reply = gestureReplySchema.parse(answer.reply)
      expect(Array.from(reply.vibe?.message ?? '')).toHaveLength(80)
      expect(reply.vibe?.message).toBe(`${Array.from(`Got your ${gestureType}`).slice(0, 79).join('')}…`)
    }
  })

  it('is down for the first attempt and receives the retry', async () => {
    // The retry waits at the port for the receiver to come up: 30 s of real time to answer it, as the
    // worlds have (a busy machine can take longer than the spec's limit scaled, 1.5 s, to start it).
    const sim = await createSimulator({ timeScale: FAST, ackTimeoutMs: 30_000 / FAST })
    cleanup.push(() => sim.close())
    // The webhook URL is this test's port from the start; the receiver behind it comes up later.
    const held = await holdPort()
    cleanup.push(() => held.close())
    const key = sim.keys.create()
    const app = sim.apps.create({
      key_id: key.id,
      webhook_url: `http://127.0.0.1:${held.port}/webhooks`,
      secret: SECRET,
    })
    const user = sim.users.create()
    let handled: Handled[] = []
    let started: Promise<RunningExample> | undefined
    // The receiver comes up only once the first attempt has failed.
    const stop = sim.on('entry', (entry) => {
      if (entry.type !== 'delivery.attempt') return
      stop()
      started = target.start(SECRET, {
        logger: recordingLogger(),
        prepare: (r) => {
          handled = recordHandled(r)
        },
      })
      void started.then((running) => held.forwardTo({ host: '127.0.0.1', port: running.port }))
      cleanup.push(async () => (await started)?.close())
    })

    const { deliveries, install } = await sim.install(app.app_id, user.id, { wait: true })
    const [installed] = deliveries
    expect(installed?.attempts[0]).toMatchObject({
      outcome: 'network_error',
      status: null,
      next_retry_in_ms: 1000 * FAST,
    })
    expect(installed?.status).toBe('delivered')
    expect(installed?.attempts.at(-1)).toMatchObject({ outcome: 'ok', status: 200 })
    expect(handled).toEqual([{ event: 'app.installed', user_app_id: install.user_app_id, detail: undefined }])
  })

  it('runs the handler once when the first attempt timed out at the acknowledgement limit: the retry is answered from the store', async () => {
    const held = gate()
    const w = await world(target, {
      sim: { timeScale: FASTER },
      // The extra gesture handler holds the reply past the 300 ms (scaled 30 s) acknowledgement limit.
      prepare: (receiver) => void receiver.on('gesture', () => held.promise),
    })
    const { install } = await w.sim.install(w.appId, w.userId, { activate: true, wait: true })
    void nextEntry(w.sim, 'delivery.attempt', (e) => e.event === 'gesture' && e.outcome === 'timeout').then(held.open)
    const { delivery, vibe } = await w.sim.gesture(install.user_app_id, 'long_press', { wait: true })

    expect(delivery?.attempts[0]).toMatchObject({ outcome: 'timeout', status: null })
    expect(delivery && ok(delivery)).toBe(true)
    expect(gestures(w.handled)).toHaveLength(1)
    // The retry got the reply the first run produced, and the ring vibed once.
    expect(JSON.parse(delivery?.attempts.at(-1)?.reply ?? '{}')).toMatchObject({
      vibe: { message: 'Got your long_press' },
    })
    expect(vibe).toMatchObject({ status: 'delivered', message: 'Got your long_press' })
    expect(w.sim.log.vibes()).toHaveLength(1)
    expect(w.logger.lines.map((l) => l.message)).toContain('Duplicate delivery: replaying the stored reply')
  })

  it('loses nothing when the secret is regenerated while deliveries are in flight', async () => {
    let secrets: readonly string[] = [SECRET]
    // Updated live, as a secrets manager would: the receiver asks for the list on each delivery.
    tuning.options = { secret: () => secrets }
    const held = gate()
    // The first attempts are held past the acknowledgement limit (300 ms here) before the rotation.
    const w = await world(target, {
      sim: { timeScale: FASTER },
      prepare: (receiver) => void receiver.on('gesture', () => held.promise),
    })
    const users = [w.userId, w.sim.users.create().id, w.sim.users.create().id]
    const installs = []
    for (const user of users)
      installs.push((await w.sim.install(w.appId, user, { activate: true, wait: true })).install)

    let rotated = ''
    const stop = w.sim.on('entry', (entry) => {
      if (entry.type !== 'delivery.attempt' || entry.event !== 'gesture') return
      // All three first attempts are held by the handler when the first one times out: rotate now.
      if (entry.outcome === 'timeout' && rotated === '') rotated = w.sim.apps.regenerateSecret(w.appId).secret
      // The retries are signed with the new secret; the receiver refuses them until it learns it.
      if (entry.status === 401) {
        stop()
        secrets = [rotated, SECRET]
        held.open()
      }
    })
    const sent = await Promise.all(installs.map((i) => w.sim.gesture(i.user_app_id, 'tap')))
    await w.sim.idle()

    const deliveries = sent.map(({ delivery }) => current(w.sim, delivery as Delivery))
    expect(deliveries.every(ok)).toBe(true)
    expect(deliveries.flatMap((d) => d.attempts).some((a) => a.status === 401)).toBe(true)
    expect(
      gestures(w.handled)
        .map((h) => h.user_app_id)
        .sort(),
    ).toEqual(installs.map((i) => i.user_app_id).sort())
    const vibes = w.sim.log.vibes()
    expect(vibes.map((v) => v.user_app_id).sort()).toEqual(installs.map((i) => i.user_app_id).sort())
    expect(vibes.every((v) => v.status === 'delivered' && v.message === 'Got your tap')).toBe(true)

    // A delivery signed with the old secret before the rotation, arriving late, is still accepted.
    const event = events.gesture({ app_id: w.appId, user_app_id: installs[0]?.user_app_id, gesture_type: 'swipe_up' })
    expect((await sendWebhook(w.example.url, event, { secret: SECRET })).status).toBe(200)
    expect((await sendWebhook(w.example.url, event, { secret: 'whsec_someone_else' })).status).toBe(401)
  })

  it('acknowledges a handler slower than the receiver deadline at the deadline, within the acknowledgement limit, and lets it finish', async () => {
    tuning.options = { deadlineMs: 150 }
    const held = gate()
    let finished = 0
    const w = await world(target, {
      // The acknowledgement limit is 1.5 s here: well past the 150 ms deadline.
      prepare: (receiver) =>
        void receiver.on('app.activated', async () => {
          await held.promise
          finished++
        }),
    })
    void nextEntry(w.sim, 'delivery.attempt', (e) => e.event === 'app.activated').then(held.open)
    const { deliveries } = await w.sim.install(w.appId, w.userId, { activate: true, wait: true })
    const activated = deliveries.find((d) => d.event === 'app.activated')

    expect(activated?.attempts).toHaveLength(1)
    expect(activated?.attempts[0]).toMatchObject({ outcome: 'ok', status: 200, reply: '{"ok":true}' })
    await vi.waitFor(() => expect(finished).toBe(1))
    expect(w.handled.filter((h) => h.event === 'app.activated')).toHaveLength(1)
    expect(w.logger.lines.map((l) => l.message)).toContain(
      'Handlers passed the deadline: acknowledged, they keep running',
    )
  })

  it("with onDeadline 'retry', answers a slow gesture 503 at the deadline and gives the retry the same vibe", async () => {
    tuning.options = { deadlineMs: 150, onDeadline: 'retry' }
    const held = gate()
    const w = await world(target, {
      prepare: (receiver) => void receiver.on('gesture', () => held.promise),
    })
    const { install } = await w.sim.install(w.appId, w.userId, { activate: true, wait: true })
    void nextEntry(w.sim, 'delivery.attempt', (e) => e.event === 'gesture').then(held.open)
    const { delivery, vibe } = await w.sim.gesture(install.user_app_id, 'swipe_down', { wait: true })

    expect(delivery?.attempts[0]).toMatchObject({ outcome: 'http_error', status: 503 })
    expect(delivery && ok(delivery)).toBe(true)
    expect(gestures(w.handled)).toHaveLength(1)
    expect(vibe).toMatchObject({ status: 'delivered', message: 'Got your swipe_down' })
    expect(w.sim.log.vibes()).toHaveLength(1)
  })
})
