import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import 'reflect-metadata'
import { createAdaptorServer } from '@hono/node-server'
import { Module } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { ExpressAdapter } from '@nestjs/platform-express'
import { FastifyAdapter } from '@nestjs/platform-fastify'
import { type LambdaHttpEvent, ringhook as lambdaRinghook, type RinghookLambdaHandler } from '@ringhook/aws-lambda'
import type { Receiver } from '@ringhook/core'
import { ringhook as expressRinghook } from '@ringhook/express'
import { ringhook as fastifyRinghook } from '@ringhook/fastify'
import { ringhook as h3Ringhook } from '@ringhook/h3'
import { ringhook as honoRinghook } from '@ringhook/hono'
import { ringhook as koaRinghook } from '@ringhook/koa'
import { ringhook as nestRinghook } from '@ringhook/nestjs'
import { ringhook as nodeRinghook } from '@ringhook/node'
import express5 from 'express'
import express4 from 'express4'
import Fastify from 'fastify'
import { H3, toNodeHandler } from 'h3'
import {
  createApp as createH3v1App,
  createRouter,
  defineEventHandler,
  readBody as readH3v1Body,
  toNodeListener,
} from 'h3v1'
import { Hono } from 'hono'
import Koa from 'koa'
import { h3v1Recipe } from '../h3-v1/recipe.js'
import { type LambdaTrigger, lambdaShim } from './lambda-shim.js'

/** A running server with a receiver mounted; `url` is where webhooks are posted. */
export interface Mounted {
  url: string
  /** The node:http server underneath, for tests that stop it themselves. */
  server: Server
  close(): Promise<void>
}

/** One adapter under test. Adding an adapter to the suite is adding one entry here. */
export interface AdapterUnderTest {
  name: string
  mount(receiver: Receiver): Promise<Mounted>
  /**
   * `'gateway'` when a gateway in front reads the HTTP body and invokes ringhook with all of it
   * (AWS Lambda): hang-ups, trickling and endless bodies are the gateway's to handle, not ringhook's.
   */
  transport?: 'gateway'
  /**
   * The same adapter behind what reads the body first, as apps do by mistake (a body parser, a
   * logging hook, a route that awaited `request.json()`), and a phrase of the fix its log must give.
   */
  readFirst: { mount(receiver: Receiver): Promise<Mounted>; fix: string }
}

/** Reads a Node request to its end and drops it, as a body-logging middleware would. */
async function drain(request: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of request) {
    // read and dropped
  }
}

/** Listens on an ephemeral port of 127.0.0.1 and returns the webhook URL. */
export async function listen(server: Server, path = '/webhooks'): Promise<Mounted> {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${path}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Express mounted with `app.use`, so every method reaches the receiver (and gets its 405). */
function expressApp(express: typeof express5, receiver: Receiver, parseFirst = false): Server {
  const app = express()
  if (parseFirst) app.use(express.json())
  app.use('/webhooks', expressRinghook(receiver))
  return createServer(app)
}

const expressReadFirst = (express: typeof express5) => ({
  mount: (receiver: Receiver) => listen(expressApp(express, receiver, true)),
  fix: 'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })',
})

function honoApp(receiver: Receiver, readFirst = false): Server {
  const app = new Hono()
  // A middleware that reads the Request itself, around Hono's cache.
  if (readFirst)
    app.use(async (c, next) => {
      await c.req.raw.arrayBuffer()
      await next()
    })
  app.all('/webhooks', honoRinghook(receiver))
  return createAdaptorServer({ fetch: app.fetch }) as Server
}

/** Fastify listens itself, on its own server. */
async function fastifyApp(receiver: Receiver, readFirst = false): Promise<Mounted> {
  const app = Fastify()
  // An app-wide hook that buffers every body, as request-logging code sometimes does.
  if (readFirst) app.addHook('onRequest', (request) => drain(request.raw))
  app.register(fastifyRinghook(receiver))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: `${base}/webhooks`, server: app.server, close: () => app.close() }
}

/** A Nest app, its global body parser on, on either platform. */
async function nestApp(receiver: Receiver, platform: ExpressAdapter | FastifyAdapter): Promise<Mounted> {
  // The module's route must be the first to read the body; an app-wide reader is the mistake it reports.
  @Module({ imports: [nestRinghook(receiver)] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, platform, { logger: false })
  await app.listen(0, '127.0.0.1')
  const server: Server = app.getHttpServer()
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/webhooks`, server, close: () => app.close() }
}

/** A Nest Fastify platform whose instance buffers every body in an app-wide hook. */
function nestFastifyReadingFirst(): FastifyAdapter {
  const platform = new FastifyAdapter()
  platform.getInstance().addHook('onRequest', (request) => drain(request.raw))
  return platform
}

/** The Lambda handler behind a middleware that replaced `event.body` with the parsed object. */
function parsedBodyFirst(handler: RinghookLambdaHandler): RinghookLambdaHandler {
  return (event) => {
    const text = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString() : (event.body ?? '')
    return handler({ ...event, body: JSON.parse(text) } as unknown as LambdaHttpEvent)
  }
}

export const adapters: AdapterUnderTest[] = [
  {
    name: 'node',
    mount: (receiver) => listen(createServer(nodeRinghook(receiver))),
    readFirst: {
      mount: (receiver) => {
        const handler = nodeRinghook(receiver)
        return listen(createServer((request, response) => void drain(request).then(() => handler(request, response))))
      },
      fix: 'Mount ringhook before the parser',
    },
  },
  {
    name: 'express 4',
    mount: (receiver) => listen(expressApp(express4 as unknown as typeof express5, receiver)),
    readFirst: expressReadFirst(express4 as unknown as typeof express5),
  },
  {
    name: 'express 5',
    mount: (receiver) => listen(expressApp(express5, receiver)),
    readFirst: expressReadFirst(express5),
  },
  {
    name: 'hono (node-server)',
    mount: (receiver) => listen(honoApp(receiver)),
    readFirst: { mount: (receiver) => listen(honoApp(receiver, true)), fix: 'c.req.text(), c.req.json()' },
  },
  {
    name: 'fetch handler (node-server)',
    mount: (receiver) => listen(createAdaptorServer({ fetch: receiver.fetch }) as Server),
    readFirst: {
      // A Next.js-style route that parsed the body before handing the request over.
      mount: (receiver) => {
        const route = async (request: Request) => {
          await request.json()
          return receiver.fetch(request)
        }
        return listen(createAdaptorServer({ fetch: route }) as Server)
      },
      fix: 'const copy = request.clone()',
    },
  },
  {
    name: 'h3 2 (node adapter)',
    mount: (receiver) => listen(createServer(toNodeHandler(new H3().all('/webhooks', h3Ringhook(receiver))))),
    readFirst: {
      mount: (receiver) => {
        const app = new H3()
          .use(async (event) => {
            if (event.req.method === 'POST') await event.req.text()
          })
          .all('/webhooks', h3Ringhook(receiver))
        return listen(createServer(toNodeHandler(app)))
      },
      fix: 'h3 keeps no copy',
    },
  },
  {
    name: 'h3 1 recipe',
    mount: (receiver) => {
      const app = createH3v1App().use(createRouter().use('/webhooks', h3v1Recipe(receiver)))
      return listen(createServer(toNodeListener(app)))
    },
    readFirst: {
      mount: (receiver) => {
        const app = createH3v1App()
          .use(
            defineEventHandler(async (event) => {
              if (event.method === 'POST') await readH3v1Body(event)
            }),
          )
          .use(createRouter().use('/webhooks', h3v1Recipe(receiver)))
        return listen(createServer(toNodeListener(app)))
      },
      fix: 'Mount ringhook before the parser',
    },
  },
  ...(['http-api', 'rest-api', 'alb-multi-value'] satisfies LambdaTrigger[]).map((trigger) => ({
    name: `aws-lambda (${trigger} event shim)`,
    mount: (receiver: Receiver) => listen(lambdaShim(lambdaRinghook(receiver), trigger)),
    transport: 'gateway' as const,
    readFirst: {
      mount: (receiver: Receiver) => listen(lambdaShim(parsedBodyFirst(lambdaRinghook(receiver)), trigger)),
      fix: 'Export ringhook(receiver) as the handler itself',
    },
  })),
  {
    name: 'fastify 5',
    mount: (receiver) => fastifyApp(receiver),
    readFirst: { mount: (receiver) => fastifyApp(receiver, true), fix: 'onRequest or preParsing hook' },
  },
  {
    name: 'koa 3',
    mount: (receiver) => listen(createServer(new Koa().use(koaRinghook(receiver)).callback())),
    readFirst: {
      mount: (receiver) => {
        const app = new Koa().use(async (ctx, next) => {
          await drain(ctx.req)
          await next()
        })
        return listen(createServer(app.use(koaRinghook(receiver)).callback()))
      },
      fix: 'app.use(ringhook(receiver)) above app.use(koaBody())',
    },
  },
  {
    name: 'nestjs 11 (express)',
    mount: (receiver) => nestApp(receiver, new ExpressAdapter()),
    readFirst: {
      mount: (receiver) => nestApp(receiver, new ExpressAdapter(express5().use(express5.json()))),
      fix: 'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })',
    },
  },
  {
    name: 'nestjs 11 (fastify)',
    mount: (receiver) => nestApp(receiver, new FastifyAdapter()),
    readFirst: {
      mount: (receiver) => nestApp(receiver, nestFastifyReadingFirst()),
      fix: 'onRequest or preParsing hook',
    },
  },
]
