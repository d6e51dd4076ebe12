// Real receivers on 127.0.0.1 for the capture package's tests: node:http through @ringhook/node.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Receiver, type ReceiverOptions, silentLogger, vibe, withExtras } from '@ringhook/core'
import { ringhook } from '@ringhook/node'

export interface Running {
  url: string
  receiver: Receiver
  /** Events the handlers ran for, in order: `${event}:${user_app_id}`. */
  handled: string[]
  close(): Promise<void>
}

/** A receiver with a gesture handler (which fails for `data.fail`) and a notification handler, listening on port 0. */
export async function startReceiver(options: Partial<ReceiverOptions> & { secret: string }): Promise<Running> {
  const handled: string[] = []
  const receiver = createReceiver({ logger: silentLogger, ...options })
  receiver.on('gesture', (event) => {
    if (withExtras(event).data.fail) throw new Error('handler broke')
    handled.push(`gesture:${event.user_app_id}`)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  receiver.on('notification.responded', (event) => void handled.push(`notification.responded:${event.user_app_id}`))
  const server: Server = createServer(ringhook(receiver))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    receiver,
    handled,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await receiver.close()
    },
  }
}
