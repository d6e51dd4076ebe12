import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSimulator, type Simulator } from '@ringhook/testing/simulator'
import { createApp } from '../../../examples/node-http/src/app.js'
import { createUiHandler } from '../../../packages/simulator-ui/src/index.js'

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/**
 * The example receiver (examples/node-http), a simulator delivering to it and serving the page, and
 * the page served again on a port of its own, driving the simulator through `?sim=` (CORS and all).
 */
export async function startWorld() {
  const secret = 'whsec_browser_suite'
  const receiver = createApp(secret)
  const webhooks: string[] = []
  receiver.server.on('request', (request) => webhooks.push(`${request.method} ${request.url}`))
  const receiverUrl = await listen(receiver.server)

  // The simulator serves the page itself too, at / on its own origin, as `ringhook simulate` does.
  const ui = createUiHandler()
  const sim: Simulator = await createSimulator({ timeScale: 0.01, handler: ui })
  const page = createServer((request, response) => {
    if (!ui(request, response)) response.writeHead(404).end()
  })
  const pageUrl = `${await listen(page)}/?sim=${encodeURIComponent(sim.url)}`

  /** A control API call, as the page and the CLI make them. */
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${sim.url}/_sim${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }

  return {
    sim,
    secret,
    webhookUrl: `${receiverUrl}/webhooks`,
    /** Every request the example receiver got, as `METHOD /path`. */
    webhooks,
    pageUrl,
    /** The page as the simulator serves it: same origin, no `?sim=`. */
    ownPageUrl: `${sim.url}/`,
    control,
    /** A service API call with a key's bearer token, as a developer's app makes them. */
    service: (token: string, path: string, body?: unknown) =>
      fetch(`${sim.apiUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async close() {
      await close(page)
      await sim.close()
      await receiver.receiver.close()
      await close(receiver.server)
    },
  }
}

export type World = Awaited<ReturnType<typeof startWorld>>
