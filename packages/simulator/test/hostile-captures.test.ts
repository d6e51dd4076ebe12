// Captured records come from strangers too: whatever a loaded record holds, the simulator sends it,
// skips it with a reason or refuses the call, and stays up to answer the next request. So may what
// answers its deliveries: an endless answer is read up to 64 KiB.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CAPTURE_FORMAT_VERSION, type CapturedDelivery } from '@ringhook/core/capture'
import { afterEach, describe, expect, it } from 'vitest'
import type { LoadCapturesResult } from '../src/control-api.js'
import { startReceiver, startWorld, type TestReceiver, type World } from './support.js'

/** A captured gesture whose `data` is `data`, written as JSON text. */
function record(id: string, data: string): CapturedDelivery {
  const body = `{"event":"gesture","gesture_type":"tap","user_app_id":"u_${id}","app_id":"app_x","timestamp":"${new Date().toISOString()}","data":${data}}`
  return {
    v: CAPTURE_FORMAT_VERSION,
    id,
    receivedAt: new Date().toISOString(),
    event: 'gesture',
    request: { method: 'POST', headers: {}, body, encoding: 'utf8', bytes: Buffer.byteLength(body) },
    answer: { status: 200, headers: {}, body: '{}' },
    outcome: 'accepted',
  }
}

const jsonl = (...records: CapturedDelivery[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('')

/** Arrays nested `n` deep: `JSON.stringify` of it overflows the stack from a few thousand. */
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`

let world: World
let target: TestReceiver
afterEach(async () => {
  await world.sim.close()
  await target.close()
})

async function setUp() {
  target = await startReceiver()
  world = await startWorld()
  return world.sim.apps.create({ key_id: world.key.id, webhook_url: target.url, secret: 'whsec_hostile_sim' })
}

describe('POST /_sim/captures with hostile records', () => {
  it('skips a record nested 15,000 deep with its reason, sends the others, and answers on', async () => {
    const app = await setUp()
    const body = { jsonl: jsonl(record('deep', nested(15_000)), record('fine', '{"a":[[1]]}')), app_id: app.app_id }
    const response = await world.control('/captures', 'POST', { ...body, wait: true })
    expect(response.status).toBe(200)
    const result = (await response.json()) as LoadCapturesResult
    expect(result.skipped).toEqual([
      { capture_id: 'deep', reason: 'the body nests arrays or objects deeper than 64 levels' },
    ])
    expect(result.loaded.map(({ capture_id, delivery }) => [capture_id, delivery.status])).toEqual([
      ['fine', 'delivered'],
    ])
    expect(target.received.map((r) => r.json.user_app_id)).toEqual(['u_fine'])
    // Still up: the next request is answered.
    expect((await world.control('/state')).status).toBe(200)
  })

  it('refuses a control API body nested too deep with a 400 invalid_request, and answers on', async () => {
    await setUp()
    const response = await fetch(`${world.sim.url}/_sim/faults/next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ringhook-sim-token': world.sim.token },
      body: `{"faults":${nested(15_000)}}`,
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: { code: 'invalid_request', message: 'The body nests arrays or objects deeper than 64 levels.' },
    })
    expect((await world.control('/state')).status).toBe(200)
  })

  it('takes a call of up to 1 MiB, room for a 64 KiB body of escaped control bytes, and refuses more with 413', async () => {
    const app = await setUp()
    const controls = `{"x":"${'\\u0001'.repeat(64 * 1024)}"}`
    const big = await world.control('/captures', 'POST', {
      jsonl: jsonl(record('controls', controls)),
      app_id: app.app_id,
    })
    expect(big.status).toBe(200)
    expect(((await big.json()) as LoadCapturesResult).loaded.map((l) => l.capture_id)).toEqual(['controls'])
    const tooBig = await world.control('/captures', 'POST', { jsonl: 'x'.repeat(1024 * 1024) })
    expect(tooBig.status).toBe(413)
    expect(((await tooBig.json()) as { error: { code: string } }).error.code).toBe('payload_too_large')
  })
})

describe('a receiver whose answer never ends', () => {
  it('is read up to 64 KiB: the delivery settles, the connection is closed', async () => {
    let written = 0
    let closed: () => void = () => {}
    const hungUp = new Promise<void>((resolve) => {
      closed = resolve
    })
    const chunk = Buffer.alloc(64 * 1024, 'x')
    const endless = createServer((request, response) => {
      request.resume()
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.on('close', closed)
      const more = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length
      }
      response.on('drain', more)
      more()
    })
    endless.listen(0, '127.0.0.1')
    await new Promise((resolve) => endless.once('listening', resolve))
    target = {
      close: async () => {
        endless.closeAllConnections()
        await new Promise((resolve) => endless.close(resolve))
      },
    } as TestReceiver
    world = await startWorld()
    const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/webhooks`
    const app = world.sim.apps.create({ key_id: world.key.id, webhook_url: url, secret: 'whsec_hostile_sim' })
    const response = await world.control('/captures', 'POST', {
      jsonl: jsonl(record('endless', '{}')),
      app_id: app.app_id,
      wait: true,
    })
    const [loaded] = ((await response.json()) as LoadCapturesResult).loaded
    expect(loaded?.delivery.status).toBe('delivered')
    expect(loaded?.delivery.attempts[0]?.reply).toHaveLength(4096)
    await hungUp
    expect(written).toBeLessThan(64 * 1024 * 1024)
  })
})
