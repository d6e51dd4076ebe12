// Graceful shutdown: receiver.close() stops taking deliveries (503 shutting_down, so the service
// retries them elsewhere), lets running handlers finish within a bound, and loses nothing: what
// was refused is handled once by the next instance, which shares the dedup store.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import {
  createMemoryStore,
  createReceiver,
  type DedupStore,
  type Receiver,
  type ReceiverOptions,
  RinghookConfigError,
  signWebhook,
} from '@ringhook/core'
import { afterAll, describe, expect, it, type TestContext } from 'vitest'
import { adapters, type Mounted } from '../conformance/adapters.js'
import { gesture, lifecycle, NOW_MS, NOW_S, post, SECRET, signed } from '../support/events.js'
import { observe } from './observations.js'
import { portOf, rawConnection, recordingLogger, requestHead, sleep, until } from './support.js'

const servers: Mounted[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

describe.concurrent.each(adapters)('receiver.close(): $name', (adapter) => {
  /** One instance of the app: a receiver on a server, sharing `store` with its successors. */
  async function instance(
    store: DedupStore,
    setup: (receiver: Receiver) => void,
    options: Partial<ReceiverOptions> = {},
  ) {
    const logger = recordingLogger()
    const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger, store, deadlineMs: 200, ...options })
    setup(receiver)
    const mounted = await adapter.mount(receiver)
    servers.push(mounted)
    return { receiver, url: mounted.url, lines: logger.lines }
  }

  const record = (task: TestContext['task'], row: string, value: string) =>
    observe({ table: 'shutdown', row, column: adapter.name, value }, task)

  it('answers new deliveries 503 shutting_down, waits for the running one, and loses neither', async ({ task }) => {
    const store = createMemoryStore()
    const done: string[] = []
    let started = 0
    const handler = (receiver: Receiver) =>
      receiver.on(['app.installed', 'app.activated'], async (event) => {
        started++
        await sleep(150)
        done.push(event.event)
      })
    const old = await instance(store, handler)
    const runningPayload = lifecycle('app.installed')
    const running = post(old.url, await signed(runningPayload))
    await until(() => started === 1) // the first delivery is in its handler
    const closing = old.receiver.close({ timeoutMs: 2000 })
    const refusedPayload = lifecycle('app.activated')
    const refused = await post(old.url, await signed(refusedPayload))
    const result = await closing
    expect(done).toEqual(['app.installed']) // close() resolved only after the running handler finished
    expect(result).toEqual({ drained: true, pending: 0 })
    expect((await running).status).toBe(200)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(refused.body).toMatchObject({ error: { code: 'shutting_down' } })

    // The service retries on the next instance: the refused delivery is handled, the finished one is not repeated.
    const next = await instance(store, handler)
    expect((await post(next.url, await signed(refusedPayload, { timestamp: NOW_S + 1 }))).status).toBe(200)
    done.length = 0
    const again = await post(next.url, await signed(runningPayload, { timestamp: NOW_S + 1 }))
    expect(again.status).toBe(200)
    expect(done).toEqual([])
    record(
      task,
      'Delivery arriving after `close()`; one in its handler',
      'new: 503 `shutting_down` + Retry-After, then 200 on the next instance; running: 200, waited for; each handled once',
    )
  })

  it('waits for handlers still running past the deadline, whose answer already went out', async ({ task }) => {
    let finished = false
    const old = await instance(createMemoryStore(), (receiver) =>
      receiver.on('gesture', async () => {
        await sleep(400)
        finished = true
      }),
    )
    const response = await post(old.url, await signed(gesture()))
    expect(response.status).toBe(200) // acknowledged at the 200 ms deadline
    expect(finished).toBe(false)
    const result = await old.receiver.close({ timeoutMs: 2000 })
    expect(finished).toBe(true)
    expect(result).toEqual({ drained: true, pending: 0 })
    record(task, 'Handler past the deadline (already answered 200) at `close()`', 'waited for; `{ drained: true }`')
  })

  it('resolves at the timeout when a handler never settles, and says so', async ({ task }) => {
    const old = await instance(createMemoryStore(), (receiver) => receiver.on('gesture', () => new Promise(() => {})))
    expect((await post(old.url, await signed(gesture()))).status).toBe(200)
    const started = performance.now()
    const result = await old.receiver.close({ timeoutMs: 150 })
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(result).toEqual({ drained: false, pending: 1 })
    expect(old.lines.some((line) => line.level === 'warn' && line.fields.pending === 1)).toBe(true)
    record(
      task,
      'Handler that never settles at `close({ timeoutMs: 150 })`',
      '`{ drained: false, pending: 1 }` after 150 ms, warning logged',
    )
  })

  it('refuses a delivery whose body was still arriving, without claiming it', async ({ task }) => {
    const store = createMemoryStore()
    let handled = 0
    const count = (receiver: Receiver) =>
      receiver.on('gesture', () => {
        handled++
      })
    const old = await instance(store, count)
    const payload = gesture()
    const { body, headers } = await signed(payload)
    const connection = await rawConnection(portOf(old.url))
    await connection.write(
      requestHead([
        `X-Service-Signature: ${headers['x-service-signature']}`,
        `X-Service-Timestamp: ${headers['x-service-timestamp']}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ]) + body.slice(0, 10),
    )
    await sleep(30)
    const closing = old.receiver.close({ timeoutMs: 2000 })
    await connection.write(body.slice(10))
    const status = await connection.status()
    connection.socket.destroy()
    expect(status).toBe(503)
    expect(connection.received()).toContain('shutting_down')
    expect(await closing).toEqual({ drained: true, pending: 0 })
    const next = await instance(store, count)
    expect((await post(next.url, await signed(payload, { timestamp: NOW_S + 1 }))).status).toBe(200)
    expect(handled).toBe(1)
    record(
      task,
      'Body still arriving at `close()`',
      '503 `shutting_down` once it is read, no claim taken; 200 on the next instance',
    )
  })
})

describe('receiver.close() contract', () => {
  it('answers every request 503 once closed, resolves at once when idle, and can be called again', async () => {
    const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger: recordingLogger() })
    expect(await receiver.close()).toEqual({ drained: true, pending: 0 })
    expect(await receiver.close({ timeoutMs: 0 })).toEqual({ drained: true, pending: 0 })
    const { body, headers } = await signed(gesture())
    for (const method of ['POST', 'GET']) {
      const response = await receiver.handle({ method, headers, rawBody: body })
      expect(response.status).toBe(503)
      expect(response.headers['retry-after']).toBe('1')
    }
    await expect(receiver.close({ timeoutMs: -1 })).rejects.toThrow(RinghookConfigError)
  })
})

describe('the node-http example', () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url))

  async function freePort(): Promise<number> {
    const server = createServer().listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    await new Promise((resolve) => server.close(resolve))
    return port
  }

  it('stops on SIGTERM with receiver.close() and exits 0', async () => {
    const port = await freePort()
    const secret = 'whsec_sigterm'
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'examples/node-http/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, RING_WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    try {
      await until(() => output.includes('listening on'), 15_000)
      const body = JSON.stringify({ ...gesture(), timestamp: new Date().toISOString() })
      const { headers } = await signWebhook({ secret, body })
      const response = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers, body })
      expect(response.status).toBe(200)
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const [code] = await exited
      expect(code).toBe(0)
      expect(output).toContain('Stopped cleanly')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
