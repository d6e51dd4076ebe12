import { afterEach, describe, expect, it } from 'vitest'
import type { Delivery, FaultName, FaultProfile, FaultSettings, ResendResult, SimReport } from '../src/control-api.js'
import { FAULT_NAMES, FAULT_PROFILES } from '../src/index.js'
import { startReceiver, startWorld, type TestReceiver, type World } from './support.js'

// The control API of faults, the report and resend: each route with the run's token, and refused without it.

let world: World
let target: TestReceiver
afterEach(async () => {
  await world.sim.close()
  await target.close()
})

/** A world whose app answers 500 until `fixed` is set; Ada's install is made by the test. */
async function setup() {
  let fixed = false
  target = await startReceiver(() => (fixed ? { status: 200 } : { status: 500, body: { error: { code: 'boom' } } }))
  world = await startWorld({ timeScale: 0.02 })
  const app = world.sim.apps.create({ key_id: world.key.id, webhook_url: target.url })
  const fix = () => {
    fixed = true
  }
  return { app, fix }
}

const json = async <T>(response: Response, status = 200): Promise<T> => {
  expect(response.status).toBe(status)
  return (await response.json()) as T
}

describe('faults over the control API', () => {
  it('sets a profile with overrides and a seed, queues the next fault, clears them', async () => {
    await setup()
    const set = await json<FaultSettings>(
      await world.control('/faults', 'POST', { profile: 'flaky-network', rates: { burst: 0 }, seed: 9 }),
    )
    expect(set).toMatchObject({ profile: 'flaky-network', seed: 9, next: [] })
    expect(set.rates).toMatchObject({ duplicate: 0.2, lost_ack: 0.2, burst: 0, reorder: 0 })
    const queued = await json<FaultSettings>(await world.control('/faults/next', 'POST', { faults: ['duplicate'] }))
    expect(queued.next).toEqual(['duplicate'])
    expect(await json<FaultSettings>(await world.control('/faults'))).toEqual(queued)
    const cleared = await json<FaultSettings>(await world.control('/faults/clear', 'POST'))
    expect(cleared).toMatchObject({ profile: null, next: [], seed: 9 })
    expect(Object.values(cleared.rates).every((rate) => rate === 0)).toBe(true)
  })

  it('lists every fault and profile it knows, each of which it then accepts', async () => {
    await setup()
    const kinds = await json<{
      faults: FaultName[]
      profiles: Record<FaultProfile, Partial<Record<FaultName, number>>>
    }>(await world.control('/faults/kinds'))
    expect(kinds).toEqual({ faults: FAULT_NAMES, profiles: FAULT_PROFILES })
    const queued = await json<FaultSettings>(await world.control('/faults/next', 'POST', { faults: kinds.faults }))
    expect(queued.next).toEqual(kinds.faults)
    for (const [profile, rates] of Object.entries(kinds.profiles)) {
      const set = await json<FaultSettings>(await world.control('/faults', 'POST', { profile }))
      expect(set.profile).toBe(profile)
      expect(set.rates).toMatchObject(rates)
    }
  })

  it('refuses an unknown fault, profile or rate with 400, and any change without the token with 401', async () => {
    await setup()
    const refused = [
      await world.control('/faults/next', 'POST', { faults: ['meteor'] }),
      await world.control('/faults', 'POST', { profile: 'sunny' }),
      await world.control('/faults', 'POST', { rates: { duplicate: 2 } }),
    ]
    expect(refused.map((response) => response.status)).toEqual([400, 400, 400])
    const anonymous = await fetch(`${world.sim.url}/_sim/faults/next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: ['duplicate'] }),
    })
    expect(anonymous.status).toBe(401)
    expect(world.sim.faults.get().next).toEqual([])
  })

  it('injects the queued fault into the next delivery, and the report lists it', async () => {
    const { app, fix } = await setup()
    fix()
    await world.control('/faults/next', 'POST', { faults: ['duplicate'] })
    await world.sim.install(app.app_id, world.ada.id, { wait: true })
    await world.sim.idle()
    expect(target.received).toHaveLength(2)
    const report = await json<SimReport>(await world.control('/report'))
    expect(report).toMatchObject({ ok: true, counts: { total: 1, delivered: 1 } })
    expect(report.faults).toEqual([expect.objectContaining({ delivery_id: 'dlv_1', fault: 'duplicate', attempt: 1 })])
  })
})

describe('the report over the control API', () => {
  it('lists a gesture whose copies were answered with different vibes in different_replies', async () => {
    // An app without deduplication: each copy runs the handler again, and its vibe counts the runs.
    let runs = 0
    const vibeOf = (run: number) => ({ success: true, vibe: { sequence: [{ type: 'tap' }], message: `run ${run}` } })
    target = await startReceiver((request) =>
      request.json.event === 'gesture' ? { status: 200, body: vibeOf(++runs) } : { status: 200 },
    )
    world = await startWorld({ timeScale: 0.02 })
    const app = world.sim.apps.create({ key_id: world.key.id, webhook_url: target.url })
    const { install } = await world.sim.install(app.app_id, world.ada.id, { activate: true, wait: true })
    await world.control('/faults/next', 'POST', { faults: ['duplicate'] })
    await world.sim.gesture(install.user_app_id, 'double_tap')
    await world.sim.idle()
    const gesture = world.sim.log.deliveries().find((delivery) => delivery.event === 'gesture')
    expect(runs).toBe(2)

    const report = await json<SimReport>(await world.control('/report'))
    expect(report.ok).toBe(false)
    expect(report.different_replies).toEqual([
      { delivery_id: gesture?.id, replies: [JSON.stringify(vibeOf(1)), JSON.stringify(vibeOf(2))] },
    ])
    expect(report.faults).toEqual([expect.objectContaining({ delivery_id: gesture?.id, fault: 'duplicate' })])
  })
})

describe('resend over the control API', () => {
  it('resends one delivery, and every delivery that failed since a time', async () => {
    const { app, fix } = await setup()
    const before = new Date(Date.now() - 1000).toISOString()
    await world.sim.install(app.app_id, world.ada.id, { activate: true, wait: true })
    const report = await json<SimReport>(await world.control('/report'))
    expect(report.ok).toBe(false)
    expect(report.undelivered.map((item) => item.why)).toEqual([
      '500 after 4 attempts: boom: the server failed',
      '500 after 4 attempts: boom: the server failed',
    ])
    fix()
    const one = await json<ResendResult>(await world.control('/deliveries/dlv_1/resend', 'POST', { wait: true }))
    expect(one.deliveries).toEqual([expect.objectContaining({ id: 'dlv_3', resend_of: 'dlv_1', status: 'delivered' })])
    const later = await json<ResendResult>(
      await world.control('/deliveries/resend', 'POST', { failed_since: new Date().toISOString(), wait: true }),
    )
    expect(later.deliveries).toEqual([])
    const all = await json<ResendResult>(
      await world.control('/deliveries/resend', 'POST', { failed_since: before, wait: true }),
    )
    expect(all.deliveries.map((delivery: Delivery) => [delivery.resend_of, delivery.status])).toEqual([
      ['dlv_1', 'delivered'],
      ['dlv_2', 'delivered'],
    ])
    expect(await json<SimReport>(await world.control('/report'))).toMatchObject({ ok: true, undelivered: [] })
  })

  it('answers 404 for an unknown delivery, 400 without failed_since, 401 without the token', async () => {
    await setup()
    expect((await world.control('/deliveries/dlv_404/resend', 'POST', {})).status).toBe(404)
    expect((await world.control('/deliveries/resend', 'POST', {})).status).toBe(400)
    const anonymous = await fetch(`${world.sim.url}/_sim/deliveries/resend`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failed_since: new Date().toISOString() }),
    })
    expect(anonymous.status).toBe(401)
  })
})

describe('the secret when the webhook URL changes', () => {
  it('is regenerated by default, kept with keep_secret, set with secret', async () => {
    const { app } = await setup()
    const patch = (body: unknown) => world.control(`/apps/${app.app_id}`, 'PATCH', body)
    const regenerated = await json<{ secret: string }>(await patch({ webhook_url: 'http://127.0.0.1:9/a' }))
    expect(regenerated.secret).not.toBe(app.secret)
    const kept = await json<{ secret: string }>(await patch({ webhook_url: 'http://127.0.0.1:9/b', keep_secret: true }))
    expect(kept.secret).toBe(regenerated.secret)
    const chosen = 'whsec_my_own_local_secret'
    const set = await json<{ secret: string }>(await patch({ webhook_url: 'http://127.0.0.1:9/c', secret: chosen }))
    expect(set.secret).toBe(chosen)
    expect(world.sim.apps.get(app.app_id).secret).toBe(chosen)
  })
})
