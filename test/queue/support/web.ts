import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEventQueue, type EventQueue, type EventQueueOptions } from '@ringhook/bullmq'
import {
  createReceiver,
  type Receiver,
  type ReceiverOptions,
  type RinghookError,
  silentLogger,
  vibe,
} from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { NOW_MS, SECRET } from '../../support/events.js'

/** A web process: a receiver that stores events on the queue, behind its own node:http server. */
export interface Web {
  readonly url: string
  readonly receiver: Receiver
  readonly events: EventQueue
  /** Errors its receiver reported to `onError`. */
  readonly errors: RinghookError[]
  /** Gestures it answered inline. */
  readonly gestures: string[]
  close(): Promise<void>
}

export async function startWeb(queue: EventQueueOptions, options: Partial<ReceiverOptions> = {}): Promise<Web> {
  const events = createEventQueue(queue)
  const receiver = events.attach(
    createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger, ...options }),
  )
  const gestures: string[] = []
  const errors: RinghookError[] = []
  receiver.on('gesture', (event) => {
    gestures.push(event.timestamp)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  receiver.onError((error) => {
    errors.push(error)
  })
  const server = createServer(ringhook(receiver)).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    receiver,
    events,
    errors,
    gestures,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await events.close()
    },
  }
}
