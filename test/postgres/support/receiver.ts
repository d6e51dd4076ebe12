import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import type { DedupStore } from '@ringhook/core/store'
import { ringhook } from '@ringhook/node'
import { NOW_MS, SECRET } from '../../support/events.js'

/** A receiver in this process behind a node:http server on 127.0.0.1; `options` change its defaults. */
export async function serve(
  store: DedupStore,
  options: Partial<Parameters<typeof createReceiver>[0]> = {},
): Promise<{ receiver: Receiver; url: string; close(): Promise<void> }> {
  const receiver = createReceiver({
    secret: SECRET,
    now: () => NOW_MS,
    logger: silentLogger,
    store,
    onDeadline: 'retry',
    ...options,
  })
  const server = createServer(ringhook(receiver)).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    receiver,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
