import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics'
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base'
import type { Receiver } from '@ringhook/core'
import type { Instrumentation } from '@ringhook/core/adapter'
import type { Capture } from '@ringhook/core/capture'
import type { DedupStore } from '@ringhook/core/store'
import type { Hono } from 'hono'
import { handRolledReceive } from '../baseline.js'
import { SECRET } from '../fixtures.js'
import { deliveryKey, type HandEvent, SeenDeliveries } from '../hand/checks.js'

// Every framework is imported by the apps that use it and no other, so a server's memory holds
// its own framework only.

/** Every server's handler does the same trivial work: count the delivery. */
export const stats = { handled: 0 }

/** The captures a server records deliveries with: their counts are reported with its stats. */
export const captures: Capture[] = []
const onEvent = (): void => {
  stats.handled += 1
}

const PATH = '/webhooks'
const ACK = '{"ok":true}'

/**
 * How long every server here remembers a delivery. Short, so that the memory store stays within
 * its budget at thousands of requests a second (its default window holds ~110 a second for 15
 * minutes); the hand-rolled routes remember theirs as long, so both hold the same deliveries.
 */
const DEDUP_TTL_MS = 10_000

/**
 * The memory store's budget in the bench. The default 40 MiB holds ~120,000 deliveries: 10 s of
 * ~12,000 a second. Faster servers here would fill it and answer 503 `store_full` (counted as
 * errors, not as answers) where the hand-rolled routes, which remember without a bound, answer 200.
 * 256 MiB holds 10 s of over 70,000 a second.
 */
const BENCH_STORE_BYTES = 256 * 1024 * 1024

async function receiver(store?: DedupStore, instrumentation?: Instrumentation, capture?: Capture): Promise<Receiver> {
  const [{ createReceiver, silentLogger }, { createMemoryStore }] = await Promise.all([
    import('@ringhook/core'),
    import('@ringhook/core/store'),
  ])
  // Short lifetimes keep the shared Redis small, and the memory store's entries few (DEDUP_TTL_MS).
  const dedup = { completedTtlMs: store ? 60_000 : DEDUP_TTL_MS }
  const created = createReceiver({
    secret: SECRET,
    logger: silentLogger,
    dedup,
    store: store ?? createMemoryStore({ maxBytes: BENCH_STORE_BYTES }),
    ...(instrumentation ? { instrumentation } : {}),
    ...(capture ? { capture } : {}),
  })
  created.on('notification.responded', onEvent)
  return created
}

/**
 * The hand-rolled route's work on a buffered body, as the spec asks it of any receiver (verify,
 * parse, check the fields, deduplicate, handle): the status to answer. One per server.
 */
function handRoute(): (body: Buffer, signature: HeaderValue, timestamp: HeaderValue) => 200 | 400 | 401 {
  const seen = new SeenDeliveries(DEDUP_TTL_MS)
  return (body, signature, timestamp) => handRolledReceive(body, signature, timestamp, seen, onEvent)
}

type HeaderValue = string | string[] | undefined
type NodeHeaders = IncomingMessage['headers']
const signatureOf = (headers: NodeHeaders) => headers['x-service-signature']
const timestampOf = (headers: NodeHeaders) => headers['x-service-timestamp']

/** Hand-rolled on node:http: buffer the body, verify, parse, validate, dedup, answer. */
function handNode(): Server {
  const receive = handRoute()
  return createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== PATH) {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const status = receive(Buffer.concat(chunks), signatureOf(req.headers), timestampOf(req.headers))
      if (status !== 200) {
        res.writeHead(status).end()
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(ACK)
    })
  })
}

/** Hand-rolled on Express 5, the way the Stripe and GitHub guides show it: express.raw() then verify. */
async function handExpress(): Promise<Server> {
  const { default: express } = await import('express')
  const app = express()
  const receive = handRoute()
  app.post(PATH, express.raw({ type: 'application/json' }), (req, res) => {
    const status = receive(req.body as Buffer, signatureOf(req.headers), timestampOf(req.headers))
    if (status !== 200) {
      res.sendStatus(status)
      return
    }
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
  const receive = handRoute()
  return fastifyServer((app) =>
    app.register((scope, _options, done) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, parsed) =>
        parsed(null, body),
      )
      scope.post(PATH, async (request, reply) => {
        const status = receive(request.body as Buffer, signatureOf(request.headers), timestampOf(request.headers))
        if (status !== 200) return reply.code(status).send()
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
  const receive = handRoute()
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== PATH) return
    const status = receive(await collect(ctx.req), signatureOf(ctx.req.headers), timestampOf(ctx.req.headers))
    if (status !== 200) {
      ctx.status = status
      return
    }
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

/** Hand-rolled on Hono: read the bytes, verify, parse, validate, dedup, answer with c.json(). */
function handHono(app: Hono): Hono {
  const receive = handRoute()
  app.post(PATH, async (c) => {
    const body = Buffer.from(await c.req.arrayBuffer())
    const status = receive(body, c.req.header('x-service-signature'), c.req.header('x-service-timestamp'))
    if (status !== 200) return c.body(null, status)
    return c.json({ ok: true })
  })
  return app
}

/** A hand-rolled Fetch handler, the shape Bun.serve, Deno.serve and Workers take. */
function handFetch(): Fetch {
  const receive = handRoute()
  return async (request) => {
    const body = Buffer.from(await request.arrayBuffer())
    const { headers } = request
    const status = receive(
      body,
      headers.get('x-service-signature') ?? undefined,
      headers.get('x-service-timestamp') ?? undefined,
    )
    if (status !== 200) return new Response(null, { status })
    return Response.json({ ok: true })
  }
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
 * An OpenTelemetry SDK registered as the Node SDK does it (async-hooks context, W3C propagation):
 * every span batched to an in-memory exporter, metrics collected each second into another. Each
 * exporter lets go of a batch once it has it, as one that sends them would, so the server's memory
 * is the SDK's and not a growing pile of spans. Returns the API it was registered with.
 */
async function registerOtelSdk(): Promise<typeof import('@opentelemetry/api')> {
  const [api, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, traces, meters] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-metrics'),
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
  return api
}

/** The node adapter with `@ringhook/otel`, the SDK registered (registerOtelSdk). */
async function ringhookOtel(): Promise<Server> {
  await registerOtelSdk()
  const [otel, { ringhook }] = await Promise.all([import('@ringhook/otel'), import('@ringhook/node')])
  return createServer(ringhook(await receiver(undefined, otel.otelInstrumentation({ route: PATH }))))
}

/**
 * The hand-rolled node:http route instrumented by hand with the same SDK (registerOtelSdk), emitting
 * what `@ringhook/otel` emits for a delivery the bench sends (a first delivery, handled, answered
 * 200): what it is fairly compared with, since the SDK's own work is most of a span's cost and grows
 * with each attribute. A SERVER span continuing the request's `traceparent`, with the same ten
 * attributes (method, route, event, secret index, the dedup key's hash, duplicate, handler
 * duration, status, outcome, deadline reached); the handler run inside its context; its duration
 * recorded in the same histogram, by event and handler outcome.
 */
async function handNodeOtel(): Promise<Server> {
  const api = await registerOtelSdk()
  const { hash } = await import('node:crypto')
  const tracer = api.trace.getTracer('bench-hand-rolled')
  const handlerDuration = api.metrics
    .getMeter('bench-hand-rolled')
    .createHistogram('webhook.handler.duration', { unit: 's' })
  const seen = new SeenDeliveries(DEDUP_TTL_MS)
  return createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== PATH) {
      res.writeHead(404).end()
      return
    }
    const parent = api.propagation.extract(api.context.active(), req.headers)
    const attributes = { 'http.request.method': 'POST', 'http.route': PATH }
    const span = tracer.startSpan(`POST ${PATH}`, { kind: api.SpanKind.SERVER, attributes }, parent)
    let handled = false
    // Called for a first delivery, once it is verified, parsed and checked (handRolledReceive).
    const handle = (event: HandEvent) => {
      handled = true
      span.setAttribute('webhook.event', event.event)
      span.setAttribute('webhook.secret_index', 0)
      span.setAttribute('webhook.dedup_key.hash', hash('sha256', deliveryKey(event), 'hex').slice(0, 16))
      span.setAttribute('webhook.duplicate', false)
      const started = performance.now()
      onEvent()
      const seconds = (performance.now() - started) / 1000
      handlerDuration.record(seconds, { 'webhook.event': event.event, 'webhook.handler.outcome': 'ok' })
      span.setAttribute('webhook.handler.duration', seconds)
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const status = api.context.with(api.trace.setSpan(parent, span), () =>
        handRolledReceive(body, signatureOf(req.headers), timestampOf(req.headers), seen, handle),
      )
      span.setAttribute('http.response.status_code', status)
      span.setAttribute('webhook.outcome', status === 200 ? 'ok' : 'refused')
      if (handled) span.setAttribute('webhook.deadline_reached', false)
      span.end()
      if (status !== 200) {
        res.writeHead(status).end()
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(ACK)
    })
  })
}

/**
 * The node adapter capturing every delivery (`createCapture`, default options: every outcome, no
 * sampling, personal fields hashed) to the rotating JSON Lines file sink of `@ringhook/capture`, in
 * a folder of its own under the system's temporary one, removed when the server stops.
 */
async function ringhookCapture(): Promise<Server> {
  const [{ mkdtemp, rm }, { tmpdir }, { join }, { createCapture }, { fileSink }, { ringhook }] = await Promise.all([
    import('node:fs/promises'),
    import('node:os'),
    import('node:path'),
    import('@ringhook/core/capture'),
    import('@ringhook/capture'),
    import('@ringhook/node'),
  ])
  const dir = await mkdtemp(join(tmpdir(), 'ringhook-bench-capture-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const { silentLogger } = await import('@ringhook/core')
  const capture = createCapture({ sink: fileSink({ path: join(dir, 'deliveries.jsonl') }), logger: silentLogger })
  captures.push(capture)
  return createServer(ringhook(await receiver(undefined, undefined, capture)))
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
  'node:hand-otel': handNodeOtel,
  'node:ringhook-capture': ringhookCapture,
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
  'fetch:hand': () => onHonoServer(handFetch()),
  'fetch:ringhook': async () => onHonoServer((await receiver()).fetch),
}
