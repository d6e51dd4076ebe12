// A receiver instance in a process of its own, started by killed-instance.test.ts with fork().
// Its gesture handler tells the test it has started, then never returns: the test kills this
// process mid-handler, as a host dies or an orchestrator kills a hung pod.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger } from '@ringhook/core'
import { ringhook } from '@ringhook/node'
import { createRedisStore } from '@ringhook/redis'
import { Redis } from 'ioredis'
import { NOW_MS, SECRET } from '../../support/events.js'

/** Messages this process sends to the test. */
export type DoomedMessage = { type: 'ready'; port: number } | { type: 'handling'; timestamp: string }

const send = (message: DoomedMessage) => process.send?.(message)
const { RINGHOOK_TEST_PREFIX: prefix, RINGHOOK_TEST_IN_FLIGHT_MS: inFlight } = process.env
if (!prefix || !inFlight || !process.send) throw new Error('doomed-instance.ts is started by killed-instance.test.ts')

const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 })
const receiver = createReceiver({
  secret: SECRET,
  now: () => NOW_MS,
  logger: silentLogger,
  store: createRedisStore({ client: redis, prefix }),
  dedup: { inFlightTtlMs: Number(inFlight) },
})
receiver.on('gesture', (event) => {
  send({ type: 'handling', timestamp: event.timestamp })
  return new Promise<never>(() => {})
})
const server = createServer(ringhook(receiver)).listen(0, '127.0.0.1', () => {
  send({ type: 'ready', port: (server.address() as AddressInfo).port })
})
