// The example apps as they are written (examples/*/src/app.ts), each started on 127.0.0.1
// in this process. Vitest runs them against the packages' sources.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Logger, Receiver, ReceiverOptions } from '@ringhook/core'
import { createApp as expressApp } from '../../../examples/express/src/app.js'
import { createApp as fastifyApp } from '../../../examples/fastify/src/app.js'
import { createApp as honoApp } from '../../../examples/hono/src/app.js'
import { createApp as koaApp } from '../../../examples/koa/src/app.js'
import { createApp as nestApp } from '../../../examples/nestjs/src/app.js'
import { createApp as nodeApp } from '../../../examples/node-http/src/app.js'
import { tuning } from './tuning.js'

/** One example app, listening. */
export interface RunningExample {
  /** Where the simulator posts webhooks. */
  url: string
  port: number
  /** The example's receiver: tests add observing handlers to it. */
  receiver: Receiver
  close(): Promise<void>
}

export interface StartOptions {
  logger?: Logger
  /** Default 0: any free port. */
  port?: number
  /** Called with the example's receiver before it listens: add observing handlers here. */
  prepare?: (receiver: Receiver) => void
}

export interface ExampleUnderTest {
  name: string
  /** Starts the example with this secret on 127.0.0.1. */
  start(secret: string, options?: StartOptions): Promise<RunningExample>
}

/** The example's receiver options: the test's logger, with the scenario's tuning laid over. */
function receiverOptions(
  secret: string,
  logger: Logger | undefined,
): [ReceiverOptions['secret'], Omit<ReceiverOptions, 'secret'>] {
  const { secret: tuned, ...options } = tuning.options
  return [tuned ?? secret, { ...(logger ? { logger } : {}), ...options }]
}

async function listening(server: Server, receiver: Receiver): Promise<RunningExample> {
  if (!server.listening) await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    receiver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const examples: ExampleUnderTest[] = [
  {
    name: 'node-http',
    start: (secret, { logger, port = 0, prepare } = {}) => {
      const { server, receiver } = nodeApp(...receiverOptions(secret, logger))
      prepare?.(receiver)
      return listening(server.listen(port, '127.0.0.1'), receiver)
    },
  },
  {
    name: 'express',
    start: (secret, { logger, port = 0, prepare } = {}) => {
      const { app, receiver } = expressApp(...receiverOptions(secret, logger))
      prepare?.(receiver)
      return listening(app.listen(port, '127.0.0.1'), receiver)
    },
  },
  {
    name: 'hono',
    start: (secret, { logger, port = 0, prepare } = {}) => {
      const { app, receiver } = honoApp(...receiverOptions(secret, logger))
      prepare?.(receiver)
      return listening(serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }) as Server, receiver)
    },
  },
  {
    name: 'fastify',
    start: async (secret, { logger, port = 0, prepare } = {}) => {
      const { app, receiver } = fastifyApp(...receiverOptions(secret, logger))
      prepare?.(receiver)
      await app.listen({ port, host: '127.0.0.1' })
      return listening(app.server, receiver)
    },
  },
  {
    name: 'koa',
    start: (secret, { logger, port = 0, prepare } = {}) => {
      const { app, receiver } = koaApp(...receiverOptions(secret, logger))
      prepare?.(receiver)
      return listening(app.listen(port, '127.0.0.1'), receiver)
    },
  },
  {
    name: 'nestjs',
    start: async (secret, { logger, port = 0, prepare } = {}) => {
      const { app, receiver } = await nestApp(...receiverOptions(secret, logger))
      prepare?.(receiver)
      await app.listen(port, '127.0.0.1')
      return listening(app.getHttpServer(), receiver)
    },
  },
]
