import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import 'reflect-metadata'
import { createAdaptorServer } from '@hono/node-server'
import { Module } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { ExpressAdapter } from '@nestjs/platform-express'
import { FastifyAdapter } from '@nestjs/platform-fastify'
import type { Receiver } from '@ringhook/core'
import { ringhook as expressRinghook } from '@ringhook/express'
import { ringhook as fastifyRinghook } from '@ringhook/fastify'
import { ringhook as honoRinghook } from '@ringhook/hono'
import { ringhook as koaRinghook } from '@ringhook/koa'
import { ringhook as nestRinghook } from '@ringhook/nestjs'
import { createNodeMiddleware } from '@ringhook/node'
import express5 from 'express'
import express4 from 'express4'
import Fastify from 'fastify'
import { Hono } from 'hono'
import Koa from 'koa'

/** A running server with a receiver mounted; `url` is where webhooks are posted. */
export interface Mounted {
  url: string
  close(): Promise<void>
}

/** One adapter under test. Adding an adapter to the suite is adding one entry here. */
export interface AdapterUnderTest {
  name: string
  mount(receiver: Receiver): Promise<Mounted>
}

/** Listens on an ephemeral port of 127.0.0.1 and returns the webhook URL. */
export async function listen(server: Server, path = '/webhooks'): Promise<Mounted> {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${path}`,
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
  return { url: `${base}/webhooks`, close: () => app.close() }
}

/** A Nest app, its global body parser on, on either platform. */
async function nestApp(receiver: Receiver, platform: ExpressAdapter | FastifyAdapter): Promise<Mounted> {
  @Module({ imports: [nestRinghook(receiver)] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, platform, { logger: false })
  await app.listen(0, '127.0.0.1')
  const { port } = app.getHttpServer().address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/webhooks`, close: () => app.close() }
}

export const adapters: AdapterUnderTest[] = [
  { name: 'node', mount: (receiver) => listen(createServer(createNodeMiddleware(receiver))) },
  { name: 'express 4', mount: (receiver) => listen(expressApp(express4 as unknown as typeof express5, receiver)) },
  { name: 'express 5', mount: (receiver) => listen(expressApp(express5, receiver)) },
  { name: 'hono (node-server)', mount: (receiver) => listen(honoApp(receiver)) },
  {
    name: 'fetch handler (node-server)',
    mount: (receiver) => listen(createAdaptorServer({ fetch: receiver.fetch }) as Server),
  },
  { name: 'fastify 5', mount: fastifyApp },
  { name: 'koa 3', mount: (receiver) => listen(createServer(new Koa().use(koaRinghook(receiver)).callback())) },
  { name: 'nestjs 11 (express)', mount: (receiver) => nestApp(receiver, new ExpressAdapter()) },
  { name: 'nestjs 11 (fastify)', mount: (receiver) => nestApp(receiver, new FastifyAdapter()) },
]
