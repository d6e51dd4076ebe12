// Captured production deliveries loaded into the simulator: sent to the app's receiver as new
// deliveries, signed with the simulator's secret, with its faults and retries around them.
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink, unauthenticatedPath } from '@ringhook/capture'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { CAPTURE_FORMAT_VERSION, type CapturedDelivery, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import type { Delivery, LoadCapturesResult } from '@ringhook/simulator/control-api'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startWorld, type World } from '../../simulator/test/support.js'
import { run } from '../src/cli/run.js'

const production = 'whsec_sim_production'
const local = 'whsec_sim_local_secret'

let jsonl = ''
let dir = ''

/** A capture file from production: two gestures, a notification answer, and a forged body. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-sim-captures-'))
  const path = join(dir, 'deliveries.jsonl')
  const capture = createCapture({ sink: fileSink({ path }), logger: silentLogger })
  const receiver = createReceiver({ secret: production, logger: silentLogger, capture })
  receiver.on('gesture', () => vibe('tap'))
  const at = new Date().toISOString()
  const bodies = [
    { event: 'gesture', gesture_type: 'tap', user_app_id: 'u_1', app_id: 'app_prod', timestamp: at, data: {} },
    { event: 'gesture', gesture_type: 'long_press', user_app_id: 'u_2', app_id: 'app_prod', timestamp: at, data: {} },
    {
      event: 'notification.responded',
      user_app_id: 'u_3',
      app_id: 'app_prod',
      timestamp: at,
      data: { event_id: 'evt_prod_1', response: 'yes' },
    },
  ].map((payload) => JSON.stringify(payload))
  for (const body of bodies) {
    const { headers } = await signWebhook({ secret: production, body })
    await receiver.handle({ method: 'POST', headers, rawBody: body })
  }
  await receiver.handle({ method: 'POST', headers: { 'content-type': 'application/json' }, rawBody: '{"forged":1}' })
  await capture.close()
  // The forgery's record is in the file of unauthenticated deliveries, beside the others.
  jsonl = (await readFile(path, 'utf8')) + (await readFile(unauthenticatedPath(path), 'utf8'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** The app's receiver on the desk: records what it handled, and resolves `reached(n)` once it has n. */
async function desk(secret: string) {
  const handled: string[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  const receiver = createReceiver({ secret, logger: silentLogger })
  receiver.onAny((event) => {
    handled.push(`${event.event}:${String(event.user_app_id)}`)
    for (const waiter of waiters.filter((w) => handled.length >= w.n)) waiter.resolve()
  })
  const server: Server = createServer(ringhook(receiver))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    handled,
    reached: (n: number) =>
      new Promise<void>((resolve) => (handled.length >= n ? resolve() : waiters.push({ n, resolve }))),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe('POST /_sim/captures', () => {
  let world: World
  let target: Awaited<ReturnType<typeof desk>>
  afterEach(async () => {
    await world.sim.close()
    await target.close()
  })

  it('delivers each captured event to the app, through the faults and retries of the simulator', async () => {
    target = await desk(local)
    world = await startWorld({ timeScale: 0.02 })
    const app = world.sim.apps.create({ key_id: world.key.id, webhook_url: target.url, secret: local })
    // The first attempt's acknowledgement is lost: the service retries, the receiver sees a duplicate.
    await world.control('/faults/next', 'POST', { faults: ['lost_ack'] })
    const response = await world.control('/captures', 'POST', { jsonl, app_id: app.app_id, wait: true })
    expect(response.status).toBe(200)
    const result = (await response.json()) as LoadCapturesResult
    expect(result.loaded.map(({ delivery }) => [delivery.event, delivery.status])).toEqual([
      ['gesture', 'delivered'],
      ['gesture', 'delivered'],
      ['notification.responded', 'delivered'],
    ])
    expect(result.loaded[0]?.delivery.attempts.length).toBe(2)
    expect(result.loaded[0]?.delivery.app_id).toBe(app.app_id)
    expect(result.skipped).toEqual([{ capture_id: expect.any(String), reason: 'not an authentic event when captured' }])
    // Handled once each, the retry recognised as a duplicate.
    expect(target.handled).toEqual(['gesture:u_1', 'gesture:u_2', 'notification.responded:u_3'])
    // Each delivery names the record it sends, and a resend of one keeps it.
    expect(result.loaded.map(({ capture_id, delivery }) => delivery.capture_id === capture_id)).toEqual([
      true,
      true,
      true,
    ])
    const first = result.loaded[0] as LoadCapturesResult['loaded'][number]
    const resent = await world.control(`/deliveries/${first.delivery.id}/resend`, 'POST', { wait: true })
    expect(((await resent.json()) as { deliveries: Delivery[] }).deliveries).toEqual([
      expect.objectContaining({ resend_of: first.delivery.id, capture_id: first.capture_id, status: 'delivered' }),
    ])
  })

  it('refuses a body that is not captured deliveries, skips a cut line, refuses a call without the token', async () => {
    target = await desk(local)
    world = await startWorld()
    world.sim.apps.create({ key_id: world.key.id, webhook_url: target.url, secret: local })
    const bad = await world.control('/captures', 'POST', { jsonl: '{"v":1}\n' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain(
      'jsonl:1 is not a captured delivery',
    )
    // A line cut by a crash among records: named as skipped, the records around it still sent.
    const [first] = jsonl.split('\n')
    const cut = await world.control('/captures', 'POST', { jsonl: `${first}\n${(first as string).slice(0, 30)}\n` })
    expect(cut.status).toBe(200)
    const result = (await cut.json()) as LoadCapturesResult
    expect(result.loaded).toHaveLength(1)
    expect(result.skipped).toEqual([{ capture_id: 'line 2', reason: 'not JSON' }])
    const anonymous = await fetch(`${world.sim.url}/_sim/captures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonl }),
    })
    expect(anonymous.status).toBe(401)
  })
})

describe('ringhook simulate --load', () => {
  it('sends the captured deliveries of a file to --webhook-url once started', async () => {
    const target = await desk(local)
    const file = join(dir, 'deliveries.jsonl')
    const out: string[] = []
    try {
      const code = await run(
        ['simulate', '--port', '0', '--webhook-url', target.url, '--secret', local, '--load', file, '--no-ui'],
        { out: (text) => void out.push(text), err: () => {} },
        { stopped: target.reached(3) },
      )
      expect(code).toBe(0)
      // The forgery is in deliveries.unauthenticated.jsonl, which --load does not read (nor would send).
      expect(out.join('\n')).toMatch(/^Loaded {5}3 captured deliveries$/m)
      expect(target.handled).toEqual(['gesture:u_1', 'gesture:u_2', 'notification.responded:u_3'])
      const missing = await run(['simulate', '--port', '0', '--load', join(dir, 'none.jsonl'), '--no-ui'], {
        out: () => {},
        err: () => {},
      })
      expect(missing).toBe(2)
    } finally {
      await target.close()
    }
  })
})

/** A captured gesture of `user` whose `data` is `data`, as JSON text. */
function captured(user: string, data: string): string {
  const body = `{"event":"gesture","gesture_type":"tap","user_app_id":"${user}","app_id":"app_prod","timestamp":"${new Date().toISOString()}","data":${data}}`
  const record: CapturedDelivery = {
    v: CAPTURE_FORMAT_VERSION,
    id: `cap_${user}`,
    receivedAt: new Date().toISOString(),
    event: 'gesture',
    request: { method: 'POST', headers: {}, body, encoding: 'utf8', bytes: Buffer.byteLength(body) },
    answer: { status: 200, headers: {}, body: '{}' },
    outcome: 'accepted',
  }
  return JSON.stringify(record)
}

describe('ringhook simulate --load, a file with hostile lines', () => {
  it('skips a deep record, a cut line and one too long for a call, names each, and loads the rest', async () => {
    const target = await desk(local)
    const file = join(dir, 'hostile.jsonl')
    const lines = [
      captured('u_first', '{}'),
      captured('u_deep', `${'['.repeat(15_000)}${']'.repeat(15_000)}`),
      captured('u_cut', '{}').slice(0, 80),
      captured('u_long', `"${'a'.repeat(1024 * 1024 + 1)}"`),
      captured('u_controls', `{"x":"${'\\u0001'.repeat(10_000)}"}`), // a 60 KB body, a line over 64 KiB
      captured('u_last', '{}'),
    ]
    await writeFile(file, `${lines.join('\n')}\n`)
    const out: string[] = []
    try {
      const code = await run(
        ['simulate', '--port', '0', '--webhook-url', target.url, '--secret', local, '--load', file, '--no-ui'],
        { out: (text) => void out.push(text), err: () => {} },
        { stopped: target.reached(3) },
      )
      expect(code).toBe(0)
      const printed = out.join('\n')
      expect(printed).toContain('skipped cap_u_deep: the body nests arrays or objects deeper than 64 levels')
      expect(printed).toContain('skipped line 3: not JSON (a write cut midway?)')
      expect(printed).toMatch(/skipped line 4: \d+ bytes once escaped, over the 1047552 a call takes/)
      expect(printed).toContain('Loaded     3 captured deliveries, 3 skipped')
      expect(target.handled).toEqual(['gesture:u_first', 'gesture:u_controls', 'gesture:u_last'])
    } finally {
      await target.close()
    }
  })
})
