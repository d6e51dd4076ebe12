import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createAdaptorServer } from '@hono/node-server'
import { createNodeMiddleware as octokitMiddleware, Webhooks } from '@octokit/webhooks'
import { createReceiver, type DedupStore, type Receiver, silentLogger } from '@ringhook/core'
import { ringhook as ringhookExpress } from '@ringhook/express'
import { ringhook as ringhookHono } from '@ringhook/hono'
import { createNodeMiddleware } from '@ringhook/node'
import { createRedisStore } from '@ringhook/redis'
import express from 'express'
import { Hono } from 'hono'
import { Redis } from 'ioredis'
import { handRolledVerify } from '../baseline.js'
import { SECRET } from '../fixtures.js'

/** Every server's handler does the same trivial work: count the delivery. */
export const stats = { handled: 0 }
const onEvent = (): void => {
  stats.handled += 1
}

const PATH = '/webhooks'
const ACK = '{"ok":true}'

function receiver(store?: DedupStore): Receiver {
  // Short lifetimes keep the shared Redis small; they do not change the work per request.
  const dedup = store ? { completedTtlMs: 60_000 } : {}
  const created = createReceiver({ secret: SECRET, logger: silentLogger, dedup, ...(store ? { store } : {}) })
  created.on('notification.responded', onEvent)
  return created
}

/** Hand-rolled on node:http: buffer the body, verify, parse, answer. */
function handNode(): Server {
  return createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== PATH) {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const event = verifyRequest(req, Buffer.concat(chunks))
      if (event === undefined) {
        res.writeHead(401).end()
        return
      }
      onEvent()
      res.writeHead(200, { 'content-type': 'application/json' }).end(ACK)
    })
  })
}

const verifyRequest = (req: IncomingMessage, body: Buffer): unknown =>
  handRolledVerify(body, req.headers['x-service-signature'], req.headers['x-service-timestamp'])

/** Hand-rolled on Express 5, the way the Stripe and GitHub guides show it: express.raw() then verify. */
function handExpress(): express.Express {
  const app = express()
  app.post(PATH, express.raw({ type: 'application/json' }), (req, res) => {
    if (verifyRequest(req, req.body as Buffer) === undefined) {
      res.sendStatus(401)
      return
    }
    onEvent()
    res.json({ ok: true })
  })
  return app
}

/** Hand-rolled on Hono: read the bytes, verify, answer with c.json(). */
function handHono(): Hono {
  const app = new Hono()
  app.post(PATH, async (c) => {
    const body = Buffer.from(await c.req.arrayBuffer())
    const event = handRolledVerify(body, c.req.header('x-service-signature'), c.req.header('x-service-timestamp'))
    if (event === undefined) return c.body(null, 401)
    onEvent()
    return c.json({ ok: true })
  })
  return app
}

/** A hand-rolled Fetch handler, the shape Bun.serve, Deno.serve and Workers take. */
async function handFetch(request: Request): Promise<Response> {
  const body = Buffer.from(await request.arrayBuffer())
  const headers = request.headers
  const event = handRolledVerify(
    body,
    headers.get('x-service-signature') ?? undefined,
    headers.get('x-service-timestamp') ?? undefined,
  )
  if (event === undefined) return new Response(null, { status: 401 })
  onEvent()
  return Response.json({ ok: true })
}

type Fetch = (request: Request) => Promise<Response> | Response

/** @hono/node-server hosts Hono apps and bare Fetch handlers on node:http. */
const onHonoServer = (fetch: Fetch): Server => createAdaptorServer({ fetch }) as Server

/** The Redis store on a fresh connection; fails fast when no Redis answers. */
async function redisStore(): Promise<DedupStore> {
  const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true })
  await client.connect()
  return createRedisStore({ client, prefix: `ringhook-bench:${process.pid}:` })
}

/** Every server the HTTP bench can start, by id, not yet listening. */
export const APPS: Record<string, () => Server | Promise<Server>> = {
  'node:hand': handNode,
  'node:ringhook': () => createServer(createNodeMiddleware(receiver())),
  'node:ringhook-redis': async () => createServer(createNodeMiddleware(receiver(await redisStore()))),
  'node:octokit': () => {
    const webhooks = new Webhooks({ secret: SECRET })
    webhooks.on('ping', onEvent)
    return createServer(octokitMiddleware(webhooks, { path: PATH, log: quietOctokitLog }))
  },
  'express:hand': () => createServer(handExpress()),
  'express:ringhook': () => {
    const app = express()
    app.post(PATH, ringhookExpress(receiver()))
    return createServer(app)
  },
  'hono:hand': () => onHonoServer(handHono().fetch),
  'hono:ringhook': () => {
    const app = new Hono()
    app.post(PATH, ringhookHono(receiver()))
    return onHonoServer(app.fetch)
  },
  'fetch:hand': () => onHonoServer(handFetch),
  'fetch:ringhook': () => onHonoServer(receiver().fetch),
}

const quiet = (): void => {}
const quietOctokitLog = { debug: quiet, info: quiet, warn: quiet, error: quiet }
