import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EventOf } from '@ringhook/core'
import {
  createReceiver,
  type Receiver,
  type ReceiverOptions,
  type RinghookError,
  silentLogger,
  vibe,
} from '@ringhook/core'
import type { DedupStore } from '@ringhook/core/store'
import { ringhook } from '@ringhook/node'
import { NOW_MS, SECRET } from '../../support/events.js'

/** One receiver instance behind its own node:http server, as one host behind a load balancer. */
export interface Instance {
  readonly name: string
  readonly url: string
  readonly receiver: Receiver
  /** Signed timestamps of the gestures its handler ran, one entry per run. */
  readonly handled: string[]
  /** Errors its receiver reported to `onError`. */
  readonly errors: RinghookError[]
  /** Awaited by the handler before it replies; tests set it to hold a handler mid-run. */
  hold: ((event: EventOf<'gesture'>) => Promise<void>) | undefined
  close(): Promise<void>
}

/** Starts an instance whose gesture handler replies with a vibe naming the instance. */
export async function startInstance(
  name: string,
  store: DedupStore,
  options: Partial<ReceiverOptions> = {},
): Promise<Instance> {
  const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger, store, ...options })
  const server = createServer(ringhook(receiver))
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const instance: Instance = {
    name,
    url: `http://127.0.0.1:${port}/webhooks`,
    receiver,
    handled: [],
    errors: [],
    hold: undefined,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
  receiver.on('gesture', async (event) => {
    instance.handled.push(event.timestamp)
    await instance.hold?.(event)
    return vibe('tap').message(`from ${name}`)
  })
  receiver.onError((error) => {
    instance.errors.push(error)
  })
  return instance
}

/** How many times, across instances, a handler ran for the gesture signed at `timestamp`. */
export const runs = (instances: Instance[], timestamp: unknown): number =>
  instances.reduce((sum, instance) => sum + instance.handled.filter((t) => t === timestamp).length, 0)
