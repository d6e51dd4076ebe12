/**
 * The cold-start contenders: what each one imports, and the handler it builds from those imports.
 * Every import is dynamic, so that the child times exactly its own contender's modules, and each
 * contender loads nothing the others need (node:http and the fetch hosts are loaded by the child).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { deliveryKey, isValidEvent, SeenDeliveries } from '../hand/checks.js'
import { handRolledWebRoute } from '../hand/web-route.js'

export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void
export type FetchHandler = (request: Request) => Promise<Response>

export type Built = { kind: 'node'; listener: NodeListener } | { kind: 'fetch'; fetch: FetchHandler }

/** Imports a contender's modules and returns how to build its handler for a secret. */
export type ColdApp = () => Promise<(secret: string) => Built>

export const PATH = '/webhooks'
const VIBE = ['tap', 'pulse'] as const
const message = (gesture: string | undefined): string => `Got ${gesture}`

/** A ringhook receiver answering gestures with a vibe; `core` is the imported @ringhook/core. */
function ringhookReceiver(core: typeof import('@ringhook/core'), secret: string) {
  return core
    .createReceiver({ secret, logger: core.silentLogger })
    .on('gesture', (event) => core.vibe(...VIBE).message(message(event.gesture_type)))
}

const handNode: ColdApp = async () => {
  const { createHmac, timingSafeEqual } = await import('node:crypto')
  return (secret) => {
    const seen = new SeenDeliveries(15 * 60_000)
    return {
      kind: 'node',
      listener: (req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const body = Buffer.concat(chunks)
          const signature = req.headers['x-service-signature']
          const timestamp = req.headers['x-service-timestamp']
          const sentAt = Number(timestamp)
          const fresh = Number.isInteger(sentAt) && Math.abs(Date.now() / 1000 - sentAt) <= 300
          const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest()
          const given = Buffer.from(typeof signature === 'string' ? signature.slice(7) : '', 'hex')
          if (!fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) {
            res.writeHead(401).end()
            return
          }
          let event: unknown
          try {
            event = JSON.parse(body.toString('utf8'))
          } catch {
            res.writeHead(400).end()
            return
          }
          // What the spec asks beyond the signature: the fields checked, a duplicate acknowledged only.
          if (!isValidEvent(event)) {
            res.writeHead(400).end()
            return
          }
          const reply = seen.firstTime(deliveryKey(event))
            ? {
                success: true,
                vibe: { sequence: VIBE.map((type) => ({ type })), message: message(event.gesture_type) },
              }
            : { ok: true }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply))
        })
      },
    }
  }
}

const ringhookNode: ColdApp = async () => {
  const [core, { ringhook }] = await Promise.all([import('@ringhook/core'), import('@ringhook/node')])
  return (secret) => ({ kind: 'node', listener: ringhook(ringhookReceiver(core, secret), { path: PATH }) })
}

/** @octokit/webhooks with one `ping` handler (GitHub's scheme; its handlers cannot reply). */
function octokitWebhooks(octokit: typeof import('@octokit/webhooks'), secret: string) {
  const webhooks = new octokit.Webhooks({ secret })
  webhooks.on('ping', () => {})
  return webhooks
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }

const octokitNode: ColdApp = async () => {
  const octokit = await import('@octokit/webhooks')
  return (secret) => ({
    kind: 'node',
    listener: octokit.createNodeMiddleware(octokitWebhooks(octokit, secret), { path: PATH, log: quiet }),
  })
}

const handFetch: ColdApp = async () => (secret) => ({ kind: 'fetch', fetch: handRolledWebRoute(secret) })

const ringhookFetch: ColdApp = async () => {
  const core = await import('@ringhook/core')
  return (secret) => ({ kind: 'fetch', fetch: ringhookReceiver(core, secret).fetch })
}

const octokitFetch: ColdApp = async () => {
  const octokit = await import('@octokit/webhooks')
  return (secret) => ({
    kind: 'fetch',
    fetch: octokit.createWebMiddleware(octokitWebhooks(octokit, secret), { path: PATH, log: quiet }) as FetchHandler,
  })
}

export const COLD_APPS: Record<string, ColdApp> = {
  'node:hand': handNode,
  'node:ringhook': ringhookNode,
  'node:octokit': octokitNode,
  'fetch:hand': handFetch,
  'fetch:ringhook': ringhookFetch,
  'fetch:octokit': octokitFetch,
}
