import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSimulator, type Simulator } from '@ringhook/simulator'
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
 * The example receiver (examples/node-http), a simulator delivering to it and serving the page on
 * 127.0.0.1, and an attacker's page on another origin (`localhost` and a port of its own).
 */
export async function startWorld() {
  const secret = 'whsec_browser_suite'
  const receiver = createApp(secret)
  const webhooks: string[] = []
  receiver.server.on('request', (request) => webhooks.push(`${request.method} ${request.url}`))
  const receiverUrl = await listen(receiver.server)

  // The simulator serves the page at / on its own origin, as `ringhook simulate` does.
  const sim: Simulator = await createSimulator({ timeScale: 0.01, handler: createUiHandler() })
  const attacker = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>evil</title>')
  })
  const attackerUrl = (await listen(attacker)).replace('127.0.0.1', 'localhost')

  /** A control API call, as a script makes them: with the run's token. */
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${sim.url}/_sim${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-ringhook-sim-token': sim.token },
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
    /** The page as the simulator serves it, on 127.0.0.1. */
    pageUrl: `${sim.url}/`,
    /** A page of another origin (localhost, another port) that tries to read and drive the simulator. */
    attackerUrl,
    control,
    /** A service API call with a key's bearer token, as a developer's app makes them. */
    service: (token: string, path: string, body?: unknown) =>
      fetch(`${sim.apiUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async close() {
      await close(attacker)
      await sim.close()
      await receiver.receiver.close()
      await close(receiver.server)
    },
  }
}

export type World = Awaited<ReturnType<typeof startWorld>>
