import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSimulator, type Simulator, type SimulatorOptions } from '../src/index.js'

/** One request a test receiver got. */
export interface Received {
  headers: IncomingHttpHeaders
  body: string
  json: { event: string; [key: string]: unknown }
}

export type Answer = { status: number; body?: unknown } | 'hang'

/** A programmable webhook receiver on 127.0.0.1 that records every request. */
export interface TestReceiver {
  url: string
  port: number
  received: Received[]
  server: Server
  close(): Promise<void>
}

export async function startReceiver(
  answer: (request: Received, index: number) => Answer | Promise<Answer> = () => ({ status: 200, body: {} }),
  port = 0,
): Promise<TestReceiver> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const request = { headers: req.headers, body, json: JSON.parse(body) }
      received.push(request)
      const reply = await answer(request, received.length - 1)
      if (reply === 'hang') return
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body ?? {}))
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const actual = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${actual}/webhooks`,
    port: actual,
    received,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A simulator with one developer key (linked to a user) and helpers to call its API. */
export async function startWorld(options: SimulatorOptions = {}) {
  const sim = await createSimulator({ timeScale: 0.01, ...options })
  const ada = sim.users.create({ name: 'Ada' })
  const key = sim.keys.create({ user_id: ada.id })
  const api = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token = key.token, ...rest } = init
    const headers = new Headers(rest.headers)
    if (token !== null) headers.set('authorization', `Bearer ${token}`)
    if (rest.body !== undefined) headers.set('content-type', 'application/json')
    return fetch(`${sim.url}${path}`, { ...rest, headers })
  }
  const trigger = (body: Record<string, unknown>, token?: string | null) =>
    api('/v1/vibes/trigger', {
      method: 'POST',
      body: JSON.stringify({ sequence: [{ type: 'tap' }], ...body }),
      ...(token === undefined ? {} : { token }),
    })
  /** A control API call as a script makes it: with the run's token, which writes need. */
  const control = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${sim.url}/_sim${path}`, {
      method,
      headers: {
        'x-ringhook-sim-token': sim.token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  return { sim, ada, key, api, trigger, control }
}

export type World = Awaited<ReturnType<typeof startWorld>>

/** Resolves with the first log entry that matches. */
export function nextEntry<T extends { type: string }>(
  sim: Simulator,
  type: T['type'],
  match: (entry: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const stop = sim.on('entry', (entry) => {
      if (entry.type === type && match(entry as unknown as T)) {
        stop()
        resolve(entry as unknown as T)
      }
    })
  })
}
