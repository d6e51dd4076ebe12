// Every fault the simulator injects, against two apps over real HTTP: a ringhook receiver, which the
// verdict passes (each event handled once, the same vibe on every retry), and a plain node:http app
// that does its work on every request, which the verdict catches.
import '@ringhook/testing/vitest'
import { createSimulator, type Simulator } from '@ringhook/simulator'
import type { FaultName } from '@ringhook/simulator/control-api'
import { afterEach, describe, expect, it } from 'vitest'
import { gate } from '../support/gate.js'
import { type NaiveOptions, naiveApp, type RunningApp, ringhookApp } from './support/fault-apps.js'
import { nextEntry } from './support/observe.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

interface Bench {
  sim: Simulator
  appId: string
  userAppId: string
  target: RunningApp
}

/**
 * A simulator 20 times faster (the first retry 50 ms), a control app, Ada's install active: no fault
 * yet. Its acknowledgement limit (`ackTimeoutMs`, before scaling) is 30 s of real time unless a test
 * sets it: a receiver on a busy machine must not pass the limit by accident where it is not what is
 * tested (the spec's 30 s would be 1.5 s here).
 */
async function bench(
  kind: 'ringhook' | Omit<NaiveOptions, 'secret'>,
  { timeScale = 0.05, ackTimeoutMs = 30_000 / timeScale }: { timeScale?: number; ackTimeoutMs?: number } = {},
): Promise<Bench> {
  const sim = await createSimulator({ timeScale, ackTimeoutMs, faults: { seed: 7 } })
  closers.push(() => sim.close())
  const key = sim.keys.create()
  const app = sim.apps.create({ key_id: key.id, webhook_url: 'http://127.0.0.1:9/unset' })
  const secret = app.secret
  const target =
    kind === 'ringhook' ? await ringhookApp(() => sim.apps.get(app.app_id).secret) : await naiveApp({ ...kind, secret })
  closers.push(target.close)
  sim.apps.update(app.app_id, { webhook_url: target.url, keep_secret: true })
  const ada = sim.users.create({ name: 'Ada' })
  const { install } = await sim.install(app.app_id, ada.id, { activate: true, wait: true })
  return { sim, appId: app.app_id, userAppId: install.user_app_id, target }
}

/** One gesture with the fault on it, once every delivery has settled. */
async function gestureWith(world: Bench, fault: FaultName): Promise<void> {
  world.sim.faults.next(fault)
  await world.sim.gesture(world.userAppId, 'double_tap')
  await world.sim.idle()
  expect(world.sim.report().faults.map((injected) => injected.fault)).toContain(fault)
}

function passes(world: Bench): void {
  expect(world.sim).toHaveDeliveredEverything()
  expect(world.target.tracker).toHaveHandledEachEventOnce(world.sim)
}

describe.each(['duplicate', 'lost_ack', 'rotation', 'burst'] as const)('%s', (fault) => {
  it('a ringhook receiver handles the gesture once and replays the same vibe', async () => {
    const world = await bench('ringhook')
    await gestureWith(world, fault)
    passes(world)
    const gesture = world.sim.log.deliveries().find((delivery) => delivery.event === 'gesture')
    expect(gesture?.attempts.length).toBeGreaterThan(1)
  })

  it('an app without deduplication is caught', async () => {
    const naive = await bench({})
    await gestureWith(naive, fault)
    expect(naive.sim).not.toHaveDeliveredEverything()
    if (fault !== 'rotation') expect(naive.target.tracker).not.toHaveHandledEachEventOnce(naive.sim)
    expect(naive.sim.report().problems.join('\n')).toMatch(fault === 'rotation' ? /given up/ : /different bodies/)
  })
})

describe('slow', () => {
  it('a ringhook receiver accepts the request sent 25 s (scaled) late and answers it within the limit', async () => {
    // The slow fault sends the attempt 25 s (scaled: 1.25 s) after it was signed. The limit is set
    // so that 5 s of real time are left after that, not the spec's 5 s scaled to 250 ms, which a
    // busy machine can miss whatever the receiver does.
    const world = await bench('ringhook', { ackTimeoutMs: 25_000 + 5_000 / 0.05 })
    await gestureWith(world, 'slow')
    passes(world)
  })

  it('an app that takes its time is retried, and does its work twice', async () => {
    // Its answer to the gesture is held until the simulator has timed the attempt out.
    const held = gate()
    // The spec's limit (1.5 s scaled): the naive app's answer is held until the attempt timed out.
    const naive = await bench({ gestureHeldBy: held.promise }, { ackTimeoutMs: 30_000 })
    const timedOut = nextEntry(naive.sim, 'delivery.attempt', (e) => e.event === 'gesture' && e.outcome === 'timeout')
    void timedOut.then(held.open)
    await gestureWith(naive, 'slow')
    await timedOut
    expect(naive.target.tracker.handled().find((h) => h.event.event === 'gesture')?.runs).toBe(2)
    expect(naive.sim.report().late).toHaveLength(1)
    expect(naive.sim).not.toHaveDeliveredEverything()
    expect(naive.target.tracker).not.toHaveHandledEachEventOnce(naive.sim)
  })
})

describe.each(['skew_within', 'skew_beyond'] as const)('%s', (fault) => {
  it('a ringhook receiver keeps the 300 s tolerance: accepts 240 s off, refuses 400 s off, then gets the retry', async () => {
    const world = await bench('ringhook')
    await gestureWith(world, fault)
    passes(world)
    const gesture = world.sim.log.deliveries().find((delivery) => delivery.event === 'gesture')
    expect(gesture?.attempts.map((attempt) => attempt.status)).toEqual(fault === 'skew_within' ? [200] : [401, 200])
  })

  it('an app with the wrong tolerance is caught', async () => {
    const naive = await bench({ toleranceSeconds: fault === 'skew_within' ? 60 : null })
    await gestureWith(naive, fault)
    expect(naive.sim.report().tolerance).toHaveLength(1)
    expect(naive.sim).not.toHaveDeliveredEverything()
  })
})

describe('reorder', () => {
  it('a ringhook receiver that orders by event timestamp ends in the right state', async () => {
    const world = await bench('ringhook')
    world.sim.faults.next('reorder')
    await world.sim.deactivate(world.userAppId)
    await world.sim.activate(world.userAppId)
    await world.sim.idle()
    const sent = world.sim.log.entries({ type: 'delivery.attempt' }).map((entry) => 'event' in entry && entry.event)
    expect(sent.slice(-2)).toEqual(['app.activated', 'app.deactivated'])
    passes(world)
    expect(world.target.states.get(world.userAppId)).toBe('active')
  })

  it('an app where the last request wins ends in the wrong state', async () => {
    const naive = await bench({})
    naive.sim.faults.next('reorder')
    await naive.sim.deactivate(naive.userAppId)
    await naive.sim.activate(naive.userAppId)
    await naive.sim.idle()
    expect(naive.target.states.get(naive.userAppId)).toBe('inactive')
  })
})

describe('same_second', () => {
  it('two distinct events share a whole-second timestamp; a ringhook receiver handles both', async () => {
    const world = await bench('ringhook')
    world.sim.faults.next('same_second')
    await world.sim.deactivate(world.userAppId)
    await world.sim.activate(world.userAppId)
    await world.sim.idle()
    const stamps = world.sim.log
      .deliveries()
      .slice(-2)
      .map((delivery) => delivery.payload.timestamp)
    expect(stamps[0]).toMatch(/:\d\dZ$/)
    expect(stamps[1]).toBe(stamps[0])
    passes(world)
  })

  it('an app that deduplicates on the timestamp alone drops one, and is caught', async () => {
    const naive = await bench({ dedupOnTimestamp: true })
    naive.sim.faults.next('same_second')
    await naive.sim.deactivate(naive.userAppId)
    await naive.sim.activate(naive.userAppId)
    await naive.sim.idle()
    expect(naive.sim).toHaveDeliveredEverything()
    expect(naive.target.tracker).not.toHaveHandledEachEventOnce(naive.sim)
    expect(naive.target.tracker.verdict(naive.sim).missing).toEqual([
      expect.objectContaining({ event: 'app.activated' }),
    ])
  })
})

describe('a profile by probability', () => {
  it('flaky-network over twenty gestures: the ringhook receiver passes, with the same seed the same faults', async () => {
    const runs: string[][] = []
    for (const _ of [1, 2]) {
      const world = await bench('ringhook')
      world.sim.faults.set({ profile: 'flaky-network', seed: 42 })
      for (let n = 0; n < 20; n++) await world.sim.gesture(world.userAppId, 'tap', { wait: true })
      await world.sim.idle()
      passes(world)
      runs.push(world.sim.report().faults.map((injected) => `${injected.delivery_id}:${injected.fault}`))
    }
    expect(runs[0]?.length).toBeGreaterThan(3)
    expect(runs[1]).toEqual(runs[0])
  })
})

describe('the log', () => {
  it('labels every injected fault, and explains a 401 right after a regeneration', async () => {
    const naive = await bench({})
    const faults: string[] = []
    naive.sim.on('entry', (entry) => void (entry.type === 'fault' && faults.push(entry.fault)))
    await gestureWith(naive, 'rotation')
    expect(faults).toEqual(['rotation'])
    const gesture = naive.sim.log.deliveries().find((delivery) => delivery.event === 'gesture')
    expect(gesture?.attempts[0]).toMatchObject({ status: 200, outcome: 'timeout', fault: 'rotation' })
    expect(gesture?.attempts[1]?.note).toMatch(/after this app's secret was regenerated/)
  })
})

describe('resend', () => {
  it('sends again every delivery that failed since a time; the report then counts the event delivered', async () => {
    let broken = true
    // 30 s of real time to answer (the spec's 30 s scaled would be 600 ms, which a busy machine can pass).
    const sim = await createSimulator({ timeScale: 0.02, ackTimeoutMs: 1_500_000 })
    closers.push(() => sim.close())
    const key = sim.keys.create()
    const app = sim.apps.create({ key_id: key.id, webhook_url: 'http://127.0.0.1:9/unset' })
    const target = await ringhookApp(() => (broken ? 'not-the-secret-at-all' : sim.apps.get(app.app_id).secret))
    closers.push(target.close)
    sim.apps.update(app.app_id, { webhook_url: target.url, keep_secret: true })
    const since = new Date()
    const { install } = await sim.install(app.app_id, sim.users.create().id, { wait: true })
    expect(install.state).toBe('inactive')
    expect(sim.report().undelivered).toEqual([expect.objectContaining({ status: 'failed', attempts: 4 })])
    expect(sim.report().undelivered[0]?.why).toMatch(
      /^401 after 4 attempts: unauthorized: the receiver rejected the signature/,
    )
    broken = false
    const { deliveries } = await sim.resendFailed(since, { wait: true })
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', resend_of: 'dlv_1' })])
    expect(sim).toHaveDeliveredEverything()
    expect(target.tracker).toHaveHandledEachEventOnce(sim)
  })
})
