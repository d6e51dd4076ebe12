import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import 'reflect-metadata'
import { createAdaptorServer } from '@hono/node-server'
import { Module } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { ExpressAdapter } from '@nestjs/platform-express'
import { FastifyAdapter } from '@nestjs/platform-fastify'
import { ringhook as lambdaRinghook } from '@ringhook/aws-lambda'
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
import { createApp as createH3v1App, createRouter, toNodeListener } from 'h3v1'
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
function expressApp(express: typeof express5, receiver: Receiver): Server {
  const app = express()
  app.use('/webhooks', expressRinghook(receiver))
  return createServer(app)
}

function honoApp(receiver: Receiver): Server {
  const app = new Hono()
  app.all('/webhooks', honoRinghook(receiver))
  return createAdaptorServer({ fetch: app.fetch }) as Server
}

/** Fastify listens itself, on its own server. */
async function fastifyApp(receiver: Receiver): Promise<Mounted> {
  const app = Fastify().register(fastifyRinghook(receiver))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: `${base}/webhooks`, server: app.server, close: () => app.close() }
}

/** A Nest app, its global body parser on, on either platform. */
async function nestApp(receiver: Receiver, platform: ExpressAdapter | FastifyAdapter): Promise<Mounted> {
  @Module({ imports: [nestRinghook(receiver)] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, platform, { logger: false })
  await app.listen(0, '127.0.0.1')
  const server: Server = app.getHttpServer()
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/webhooks`, server, close: () => app.close() }
}

export const adapters: AdapterUnderTest[] = [
  { name: 'node', mount: (receiver) => listen(createServer(nodeRinghook(receiver))) },
  { name: 'express 4', mount: (receiver) => listen(expressApp(express4 as unknown as typeof express5, receiver)) },
  { name: 'express 5', mount: (receiver) => listen(expressApp(express5, receiver)) },
  { name: 'hono (node-server)', mount: (receiver) => listen(honoApp(receiver)) },
  {
    name: 'fetch handler (node-server)',
    mount: (receiver) => listen(createAdaptorServer({ fetch: receiver.fetch }) as Server),
  },
  {
    name: 'h3 2 (node adapter)',
    mount: (receiver) => listen(createServer(toNodeHandler(new H3().all('/webhooks', h3Ringhook(receiver))))),
  },
  {
    name: 'h3 1 recipe',
    mount: (receiver) => {
      const app = createH3v1App().use(createRouter().use('/webhooks', h3v1Recipe(receiver)))
      return listen(createServer(toNodeListener(app)))
    },
  },
  ...(['http-api', 'rest-api', 'alb-multi-value'] satisfies LambdaTrigger[]).map((trigger) => ({
    name: `aws-lambda (${trigger} event shim)`,
    mount: (receiver: Receiver) => listen(lambdaShim(lambdaRinghook(receiver), trigger)),
    transport: 'gateway' as const,
  })),
  { name: 'fastify 5', mount: fastifyApp },
  { name: 'koa 3', mount: (receiver) => listen(createServer(new Koa().use(koaRinghook(receiver)).callback())) },
  { name: 'nestjs 11 (express)', mount: (receiver) => nestApp(receiver, new ExpressAdapter()) },
  { name: 'nestjs 11 (fastify)', mount: (receiver) => nestApp(receiver, new FastifyAdapter()) },
]
