/**
 * The durable path of @ringhook/bullmq, in this process: Redis commands per delivery on the
 * enqueue path (receiver.handle() storing each event as a job), then how fast one worker drains
 * those jobs, with its commands per job. Commands are counted on ioredis' `sendCommand`, so the
 * count is exact for this process whatever else uses the shared Redis; each is one round trip
 * except where ioredis pipelines them.
 */
import { createEventQueue, createWorker } from '@ringhook/bullmq'
import { createReceiver, silentLogger } from '@ringhook/core'
import { Redis } from 'ioredis'
import { eventBody, ringHeaders, SECRET } from '../fixtures.js'

export interface QueueReport {
  jobs: number
  enqueue: { perSecond: number; commandsPerDelivery: number }
  worker: { concurrency: number; jobsPerSecond: number; commandsPerJob: number }
}

let commands = 0
/** Counts every command any ioredis client in this process sends from now on. */
function countCommands(): void {
  const proto = Redis.prototype as unknown as { sendCommand: (...args: unknown[]) => unknown; counted?: boolean }
  if (proto.counted) return
  const send = proto.sendCommand
  proto.sendCommand = function (this: unknown, ...args: unknown[]) {
    commands += 1
    return send.apply(this, args)
  }
  proto.counted = true
}

export async function runQueueBench(jobs: number, concurrency: number): Promise<QueueReport> {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true })
  await redis.connect()
  countCommands()
  const prefix = `ringhook-bench-${process.pid}`
  const events = createEventQueue({ connection: redis, prefix })
  const receiver = events.attach(createReceiver({ secret: SECRET, logger: silentLogger }))
  const deliveries = Array.from({ length: jobs }, () => {
    const body = eventBody()
    return { method: 'POST', headers: ringHeaders(body), rawBody: body }
  })
  try {
    // One delivery first, so connection set-up and script loading stay out of the count.
    const warmup = eventBody()
    await receiver.handle({ method: 'POST', headers: ringHeaders(warmup), rawBody: warmup })
    const before = commands
    const started = performance.now()
    // Sequential: the count per delivery is then exact, and the rate is one delivery's latency.
    for (const delivery of deliveries) {
      const answer = await receiver.handle(delivery)
      if (answer.status !== 200) throw new Error(`enqueue answered ${answer.status}: ${answer.body}`)
    }
    const enqueueS = (performance.now() - started) / 1000
    const enqueue = { perSecond: jobs / enqueueS, commandsPerDelivery: (commands - before) / jobs }

    const total = jobs + 1
    let completed = 0
    let done: () => void = () => {}
    const drained = new Promise<void>((resolve) => {
      done = resolve
    })
    const worker = createWorker({ connection: redis, prefix, logger: silentLogger, concurrency, autorun: false })
    worker.on('notification.responded', () => {})
    worker.worker.on('completed', () => {
      completed += 1
      if (completed === total) done()
    })
    await worker.worker.waitUntilReady()
    const workerBefore = commands
    const workerStarted = performance.now()
    worker.run()
    await drained
    const workerS = (performance.now() - workerStarted) / 1000
    const commandsPerJob = (commands - workerBefore) / total
    await worker.close({ timeoutMs: 5_000 })
    return { jobs, enqueue, worker: { concurrency, jobsPerSecond: total / workerS, commandsPerJob } }
  } finally {
    await events.queue.obliterate({ force: true }).catch(() => {})
    await events.close()
    redis.disconnect()
  }
}
