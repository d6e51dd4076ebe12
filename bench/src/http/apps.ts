import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics'
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base'
import type { DedupStore, Instrumentation, Receiver } from '@ringhook/core'
import type { Hono } from 'hono'
import { handRolledVerify } from '../baseline.js'
import { SECRET } from '../fixtures.js'

// Every framework is imported by the apps that use it and no other, so a server's memory holds
// its own framework only.

/** Every server's handler does the same trivial work: count the delivery. */
export const stats = { handled: 0 }
const onEvent = (): void => {
  stats.handled += 1
}

const PATH = '/webhooks'
const ACK = '{"ok":true}'

async function receiver(store?: DedupStore, instrumentation?: Instrumentation): Promise<Receiver> {
  const { createReceiver, silentLogger } = await import('@ringhook/core')
  // Short lifetimes keep the shared Redis small, and the memory store within its budget at thousands
  // of requests a second (its default holds ~110 a second for 15 minutes); the work per request is the same.
  const dedup = { completedTtlMs: store ? 60_000 : 10_000 }
  const created = createReceiver({
    secret: SECRET,
    logger: silentLogger,
    dedup,
    ...(store ? { store } : {}),
    ...(instrumentation ? { instrumentation } : {}),
  })
  created.on('notification.responded', onEvent)
  return created
}

const verifyRequest = (req: IncomingMessage, body: Buffer): unknown =>
  handRolledVerify(body, req.headers['x-service-signature'], req.headers['x-service-timestamp'])

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
      if (verifyRequest(req, Buffer.concat(chunks)) === undefined) {
        res.writeHead(401).end()
        return
      }
      onEvent()
      res.writeHead(200, { 'content-type': 'application/json' }).end(ACK)
    })
  })
}

/** Hand-rolled on Express 5, the way the Stripe and GitHub guides show it: express.raw() then verify. */
async function handExpress(): Promise<Server> {
  const { default: express } = await import('express')
  const app = express()
  app.post(PATH, express.raw({ type: 'application/json' }), (req, res) => {
    if (verifyRequest(req, req.body as Buffer) === undefined) {
      res.sendStatus(401)
      return
    }
    onEvent()
    res.json({ ok: true })
  })
  return createServer(app)
}

async function ringhookExpress(): Promise<Server> {
  const [{ default: express }, { ringhook }] = await Promise.all([import('express'), import('@ringhook/express')])
  const app = express()
  app.post(PATH, ringhook(await receiver()))
  return createServer(app)
}

/** Fastify answers on its own node:http server once its plugins have loaded. */
async function fastifyServer(setup: (app: import('fastify').FastifyInstance) => void): Promise<Server> {
  const { default: Fastify } = await import('fastify')
  const app = Fastify()
  setup(app)
  await app.ready()
  return app.server
}

/** Hand-rolled on Fastify 5, as its guides show it: a Buffer JSON parser in the route's own context, then verify. */
function handFastify(): Promise<Server> {
  return fastifyServer((app) =>
    app.register((scope, _options, done) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, parsed) =>
        parsed(null, body),
      )
      scope.post(PATH, async (request, reply) => {
        if (verifyRequest(request.raw, request.body as Buffer) === undefined) return reply.code(401).send()
        onEvent()
        return { ok: true }
      })
      done()
    }),
  )
}

async function ringhookFastify(): Promise<Server> {
  const [{ ringhook }, created] = await Promise.all([import('@ringhook/fastify'), receiver()])
  return fastifyServer((app) => app.register(ringhook(created)))
}

/** Node's 'data' events, the quickest way to a request body by hand. */
function collect(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** Hand-rolled on Koa 3: the body collected from the request stream, verify, `ctx.body = {...}`. */
async function handKoa(): Promise<Server> {
  const { default: Koa } = await import('koa')
  const app = new Koa()
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== PATH) return
    if (verifyRequest(ctx.req, await collect(ctx.req)) === undefined) {
      ctx.status = 401
      return
    }
    onEvent()
    ctx.body = { ok: true }
  })
  return createServer(app.callback())
}

async function ringhookKoa(): Promise<Server> {
  const [{ default: Koa }, { ringhook }, created] = await Promise.all([
    import('koa'),
    import('@ringhook/koa'),
    receiver(),
  ])
  return createServer(new Koa().use(ringhook(created)).callback())
}

/** Hand-rolled on Hono: read the bytes, verify, answer with c.json(). */
function handHono(app: Hono): Hono {
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
async function onHonoServer(fetch: Fetch): Promise<Server> {
  const { createAdaptorServer } = await import('@hono/node-server')
  return createAdaptorServer({ fetch }) as Server
}

async function honoApp(): Promise<Hono> {
  const { Hono } = await import('hono')
  return new Hono()
}

/** The node adapter with the Redis store on a fresh connection; fails fast when no Redis answers. */
async function ringhookRedis(): Promise<Server> {
  const [{ Redis }, { createRedisStore }, { ringhook }] = await Promise.all([
    import('ioredis'),
    import('@ringhook/redis'),
    import('@ringhook/node'),
  ])
  const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true })
  await client.connect()
  const store = createRedisStore({ client, prefix: `ringhook-bench:${process.pid}:` })
  return createServer(ringhook(await receiver(store)))
}

/** Run before the server process exits: what an app must clean up in the shared Redis. */
export const cleanups: (() => Promise<unknown>)[] = []

/**
 * The node adapter with @ringhook/bullmq attached: every delivery is stored as a job in Redis
 * before it is answered. No worker runs; the jobs are removed when the server stops.
 */
async function ringhookQueue(): Promise<Server> {
  const [{ Redis }, { createEventQueue }, { ringhook }] = await Promise.all([
    import('ioredis'),
    import('@ringhook/bullmq'),
    import('@ringhook/node'),
  ])
  const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true })
  await client.connect()
  const events = createEventQueue({ connection: client, prefix: `ringhook-bench-${process.pid}` })
  cleanups.push(() => events.queue.obliterate({ force: true }))
  return createServer(ringhook(events.attach(await receiver())))
}

/**
 * The node adapter with `@ringhook/otel` and an OpenTelemetry SDK registered as the Node SDK does it
 * (async-hooks context, W3C propagation): every span batched to an in-memory exporter, metrics
 * collected each second into another. Each exporter lets go of a batch once it has it, as one that
 * sends them would, so the server's memory is the SDK's and not a growing pile of spans.
 */
async function ringhookOtel(): Promise<Server> {
  const [api, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, traces, meters, otel, { ringhook }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/sdk-metrics'),
      import('@ringhook/otel'),
      import('@ringhook/node'),
    ])
  const spans = new (class extends traces.InMemorySpanExporter {
    override export(batch: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
      super.export(batch, done)
      this.reset()
    }
  })()
  // The SDK's defaults: batches of 512, exported as soon as one is full.
  const processor = new traces.BatchSpanProcessor(spans)
  const points = new (class extends meters.InMemoryMetricExporter {
    override export(batch: ResourceMetrics, done: Parameters<PushMetricExporter['export']>[1]): void {
      super.export(batch, done)
      this.reset()
    }
  })(meters.AggregationTemporality.CUMULATIVE)
  const reader = new meters.PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 1_000 })
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  api.trace.setGlobalTracerProvider(new traces.BasicTracerProvider({ spanProcessors: [processor] }))
  api.metrics.setGlobalMeterProvider(new meters.MeterProvider({ readers: [reader] }))
  return createServer(ringhook(await receiver(undefined, otel.otelInstrumentation({ route: PATH }))))
}

async function octokit(): Promise<Server> {
  const { createNodeMiddleware, Webhooks } = await import('@octokit/webhooks')
  const webhooks = new Webhooks({ secret: SECRET })
  webhooks.on('ping', onEvent)
  const quiet = (): void => {}
  return createServer(
    createNodeMiddleware(webhooks, { path: PATH, log: { debug: quiet, info: quiet, warn: quiet, error: quiet } }),
  )
}

/** Every server the HTTP bench can start, by id, not yet listening. */
export const APPS: Record<string, () => Server | Promise<Server>> = {
  'node:hand': handNode,
  'node:ringhook': async () => {
    const { ringhook } = await import('@ringhook/node')
    return createServer(ringhook(await receiver()))
  },
  'node:ringhook-redis': ringhookRedis,
  'node:ringhook-queue': ringhookQueue,
  'node:ringhook-otel': ringhookOtel,
  'node:octokit': octokit,
  'express:hand': handExpress,
  'express:ringhook': ringhookExpress,
  'fastify:hand': handFastify,
  'fastify:ringhook': ringhookFastify,
  'koa:hand': handKoa,
  'koa:ringhook': ringhookKoa,
  'hono:hand': async () => onHonoServer(handHono(await honoApp()).fetch),
  'hono:ringhook': async () => {
    const [app, { ringhook }] = await Promise.all([honoApp(), import('@ringhook/hono')])
    app.post(PATH, ringhook(await receiver()))
    return onHonoServer(app.fetch)
  },
  'fetch:hand': () => onHonoServer(handFetch),
  'fetch:ringhook': async () => onHonoServer((await receiver()).fetch),
}
