// The receiver under soak, in its own process: `node --import tsx --expose-gc server.ts <adapter>`,
// started by run.ts with an IPC channel. It counts, per delivery id, how many times a handler
// completed, fails the first attempt of deliveries marked `fail_first`, reports its memory after
// a full GC on request, and on SIGTERM shuts down the way the examples do, then reports its counts.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, type Receiver, silentLogger } from '@ringhook/core'
import { createMemoryStore } from '@ringhook/core/store'

export type AdapterName = 'node' | 'express' | 'hono' | 'fetch'

/** Messages from the server process to the soak runner. */
export type ServerMessage =
  | { type: 'ready'; port: number }
  | { type: 'memory'; heapUsed: number; arrayBuffers: number; rss: number; storeEntries: number; storeBytes: number }
  | { type: 'final'; completions: Array<[number, number]>; calls: number; drained: boolean; pending: number }

/**
 * Messages from the soak runner. `canary` makes the server hold `bytes` more heap to the end: a
 * weighing that does not see it measured nothing.
 */
export type RunnerMessage = { type: 'memory' } | { type: 'canary'; bytes: number }

async function mount(adapter: AdapterName, receiver: Receiver): Promise<Server> {
  switch (adapter) {
    case 'node': {
      const { ringhook } = await import('@ringhook/node')
      return createServer(ringhook(receiver))
    }
    case 'express': {
      const [{ default: express }, { ringhook }] = await Promise.all([import('express'), import('@ringhook/express')])
      const app = express()
      app.post('/webhooks', ringhook(receiver))
      return createServer(app)
    }
    case 'hono': {
      const [{ Hono }, { createAdaptorServer }, { ringhook }] = await Promise.all([
        import('hono'),
        import('@hono/node-server'),
        import('@ringhook/hono'),
      ])
      const app = new Hono()
      app.post('/webhooks', ringhook(receiver))
      return createAdaptorServer({ fetch: app.fetch }) as Server
    }
    case 'fetch': {
      const { createAdaptorServer } = await import('@hono/node-server')
      return createAdaptorServer({ fetch: receiver.fetch }) as Server
    }
  }
}

/** `bytes` of doubles (and an array header): sized up front, no spare capacity. */
function canaryArray(bytes: number): number[] {
  const values = new Array<number>(bytes / 8)
  for (let i = 0; i < values.length; i++) values[i] = i + 0.5
  return values
}

async function main() {
  const adapter = process.argv[2] as AdapterName
  const secret = process.env.SOAK_SECRET
  const send = (message: ServerMessage, then?: () => void) => process.send?.(message, undefined, {}, then)
  if (!secret || !process.send) throw new Error('server.ts is started by test/soak/run.ts')
  const gc = globalThis.gc
  if (!gc) throw new Error('server.ts weighs its heap: run it with --expose-gc')

  const memoryStore = createMemoryStore()
  const receiver = createReceiver({ secret, logger: silentLogger, store: memoryStore })
  // Counters by delivery id, allocated up front so that counting adds nothing to the heap under test.
  const ids = Number(process.env.SOAK_IDS)
  const completions = new Uint8Array(ids)
  const failedOnce = new Uint8Array(ids)
  let calls = 0
  receiver.onAny(async (event) => {
    calls++
    const { soak_id: id, fail_first: failFirst } = event as { soak_id?: unknown; fail_first?: unknown }
    if (typeof id !== 'number' || !(id >= 0 && id < ids)) return
    if (failFirst === true && !failedOnce[id]) {
      failedOnce[id] = 1
      throw new Error('planned first-attempt failure')
    }
    // A little asynchronous work, as a real handler would do (a write to a database).
    await new Promise((resolve) => setImmediate(resolve))
    completions[id] = Math.min(255, (completions[id] as number) + 1)
  })

  const server = await mount(adapter, receiver)
  server.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (server.address() as AddressInfo).port }))

  const held: number[][] = []
  process.on('message', async (message: RunnerMessage) => {
    if (message.type === 'canary') held.push(canaryArray(message.bytes))
    if (message.type !== 'memory') return
    // Twice, a turn apart: what finalizers of the first collection release goes in the second.
    gc()
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    const { heapUsed, arrayBuffers, rss } = process.memoryUsage()
    send({ type: 'memory', heapUsed, arrayBuffers, rss, storeEntries: memoryStore.size, storeBytes: memoryStore.bytes })
  })

  process.once('SIGTERM', async () => {
    const { closeGracefully } = await import('@ringhook/node')
    const { drained, pending } = await closeGracefully(server, receiver, { timeoutMs: 10_000 })
    held.length = 0
    const counted: Array<[number, number]> = []
    completions.forEach((count, id) => {
      if (count > 0) counted.push([id, count])
    })
    send({ type: 'final', completions: counted, calls, drained, pending }, () => process.exit(drained ? 0 : 1))
  })
}

await main()
