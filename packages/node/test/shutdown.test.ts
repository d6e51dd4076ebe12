import { once } from 'node:events'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger } from '@ringhook/core'
import { signWebhook } from '@ringhook/core/signature'
import { describe, expect, it } from 'vitest'
import { rawJson } from '../../../test/support/adapter-kit.js'
import { gate } from '../../../test/support/gate.js'
import { closeGracefully, ringhook } from '../src/index.js'

const SECRET = 'whsec_node_shutdown'

async function delivery(gestureType: string) {
  const body = rawJson({
    event: 'gesture',
    gesture_type: gestureType,
    user_app_id: 'u-1',
    app_id: 'app_demo',
    timestamp: new Date().toISOString(),
    data: {},
  })
  return { method: 'POST', body, headers: (await signWebhook({ secret: SECRET, body })).headers }
}

/** A server whose gesture handler, once `running`, waits for the test to open `held`. */
async function start() {
  const receiver = createReceiver({ secret: SECRET, logger: silentLogger })
  const finished: string[] = []
  const started = gate()
  const held = gate()
  receiver.on('gesture', async (event) => {
    started.open()
    await held.promise
    finished.push(event.gesture_type)
  })
  const server = createServer(ringhook(receiver)).listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  return { receiver, server, url, finished, running: started.promise, held }
}

/** Two turns of the event loop: a close that did not wait for a handler has resolved by then. */
async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  await new Promise((resolve) => setImmediate(resolve))
}

describe('closeGracefully', () => {
  it('lets a running handler finish and answer, then closes the server', async () => {
    const { receiver, server, url, finished, running, held } = await start()
    const inFlight = fetch(url, await delivery('slow'))
    await running
    // What had finished when closeGracefully resolved.
    const closing = closeGracefully(server, receiver, { timeoutMs: 5000 }).then((result) => ({
      result,
      finished: [...finished],
    }))
    await settled()
    held.open()
    expect(await closing).toEqual({ result: { drained: true, pending: 0 }, finished: ['slow'] })
    expect((await inFlight).status).toBe(200)
    expect(server.listening).toBe(false)
  })

  it('reports what is still running when the bound passes, and still closes', async () => {
    const { receiver, server, url, running, held } = await start()
    const inFlight = fetch(url, await delivery('stuck')).catch((error: unknown) => error)
    await running
    const result = await closeGracefully(server, receiver, { timeoutMs: 50 })
    expect(result.drained).toBe(false)
    expect(result.pending).toBeGreaterThan(0)
    expect(server.listening).toBe(false)
    held.open()
    await inFlight
  })

  it('answers 503 to a delivery that arrives while closing, so the service retries it', async () => {
    const { receiver, server, url, running, held } = await start()
    const first = fetch(url, await delivery('first'))
    await running
    const closing = closeGracefully(server, receiver, { timeoutMs: 5000 })
    // The handler still runs, so the first connection is busy; a late request goes to the receiver directly.
    const request = await delivery('late')
    const late = await receiver.handle({ ...request, rawBody: request.body })
    expect(late.status).toBe(503)
    expect(JSON.parse(late.body)).toMatchObject({ error: { code: 'shutting_down' } })
    held.open()
    await closing
    expect((await first).status).toBe(200)
  })

  it('answers a request sent on an idle kept-alive connection as closing begins, and lets the connection go', async () => {
    const { receiver, server, url, held } = await start()
    held.open()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      expect(await send(agent, url, await delivery('before'))).toMatchObject({ status: 200 })
      const late = await delivery('late')
      // The connection is idle in the agent's pool; the next request reuses it the moment closing starts.
      const closing = closeGracefully(server, receiver, { timeoutMs: 5000 })
      const answer = await send(agent, url, late)
      expect(answer).toMatchObject({ status: 503, retryAfter: '1', connection: 'close' })
      expect(await closing).toEqual({ drained: true, pending: 0 })
      expect(server.listening).toBe(false)
      // The port is closed: a new connection is refused before anything is written.
      await expect(send(agent, url, await delivery('after'))).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    } finally {
      agent.destroy()
    }
  })
})

/** Posts a delivery through `agent`; rejects with the socket error when there is no answer. */
function send(agent: Agent, url: string, { body, headers }: { body: string; headers: Record<string, string> }) {
  return new Promise<{ status: number; retryAfter?: string; connection?: string }>((resolve, reject) => {
    const req = request(url, { agent, method: 'POST', headers }, (res) => {
      res.resume()
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ...(res.headers['retry-after'] ? { retryAfter: res.headers['retry-after'] } : {}),
          ...(res.headers.connection ? { connection: res.headers.connection } : {}),
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}
