// The two apps every fault test runs: a ringhook receiver (which must pass), and a plain node:http app
// that does its work on every request, without deduplication (which the verdict must catch).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Receiver, silentLogger, vibe } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createHandlerTracker, type HandlerTracker, trackHandlers } from '@ringhook/testing'

export interface RunningApp {
  url: string
  tracker: HandlerTracker
  /** The latest state each install reached, as the app's own logic decided it. */
  states: Map<string, string>
  close(): Promise<void>
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
}

const close = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

const STATE_OF: Record<string, string> = {
  'app.installed': 'inactive',
  'app.activated': 'active',
  'control.passive': 'passive',
  'app.deactivated': 'inactive',
  'app.uninstalled': 'removed',
}

/**
 * A ringhook receiver: the secret read from the simulator at each request (it follows a rotation),
 * a gesture answered with a vibe that changes every run (so a replay is the only way to send the
 * same one twice), and states kept by event timestamp, the latest wins.
 */
export async function ringhookApp(secret: () => string): Promise<RunningApp & { receiver: Receiver }> {
  const receiver = createReceiver({ secret: () => secret(), logger: silentLogger })
  const tracker = trackHandlers(receiver)
  const states = new Map<string, string>()
  const seen = new Map<string, string>()
  let runs = 0
  receiver.on('gesture', () => vibe('tap').message(`run ${++runs}`))
  receiver.onAny((event) => {
    const state = STATE_OF[event.event]
    const at = String((event as { timestamp?: string }).timestamp)
    const id = String((event as { user_app_id?: string }).user_app_id)
    if (state === undefined || (seen.get(id) ?? '') > at) return
    seen.set(id, at)
    states.set(id, state)
  })
  const server = createServer(ringhook(receiver, { path: '/webhooks' }))
  return { url: await listen(server), tracker, states, receiver, close: close(server) }
}

export interface NaiveOptions {
  /** The secret it verifies with, read once: it never learns of a rotation. */
  secret: string
  /** Refuses timestamps further off than this; null checks none. Default 300. */
  toleranceSeconds?: number | null
  /** A slow app: its work on a gesture waits for this (a gate the test opens) before it answers. */
  gestureHeldBy?: Promise<void>
  /** Skips an event whose timestamp it has seen: "deduplication" on the timestamp alone. */
  dedupOnTimestamp?: boolean
}

/** A plain node:http app that verifies the signature and does its work on every request it accepts. */
export async function naiveApp(options: NaiveOptions): Promise<RunningApp> {
  const tracker = createHandlerTracker()
  const states = new Map<string, string>()
  const stamps = new Set<string>()
  let effects = 0
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const timestamp = String(request.headers['x-service-timestamp'])
      const signature = String(request.headers['x-service-signature'])
      const tolerance = options.toleranceSeconds === undefined ? 300 : options.toleranceSeconds
      const skew = Math.abs(Date.now() / 1000 - Number(timestamp))
      if (!signed(options.secret, timestamp, body, signature) || (tolerance !== null && skew > tolerance)) {
        response.writeHead(401).end()
        return
      }
      const event = JSON.parse(body)
      if (options.gestureHeldBy && event.event === 'gesture') await options.gestureHeldBy
      if (!(options.dedupOnTimestamp && stamps.has(event.timestamp))) {
        stamps.add(event.timestamp)
        tracker.record(event)
        effects++
        const state = STATE_OF[event.event]
        if (state) states.set(event.user_app_id, state)
      }
      const reply = event.event === 'gesture' ? { sequence: [{ type: 'tap' }], message: `effect ${effects}` } : {}
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply))
    })
  })
  return { url: await listen(server), tracker, states, close: close(server) }
}

function signed(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`)
  const given = Buffer.from(signature)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
