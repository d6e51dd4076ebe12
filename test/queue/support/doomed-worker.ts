// A worker in a process of its own, started by killed-worker.test.ts with fork(). Its handler
// applies the effect of some events and then never returns, and for others never returns before
// applying it: the test kills this process mid-job with SIGKILL, as a host dies.
import { createWorker } from '@ringhook/bullmq'
import { silentLogger } from '@ringhook/core'
import { Redis } from 'ioredis'
import { recordAnswer } from './effects.js'
import { FAST_LOCKS } from './queue.js'

/** Messages this process sends to the test. */
export type DoomedWorkerMessage = { type: 'ready' } | { type: 'handling'; eventId: string; applied: boolean }

const send = (message: DoomedWorkerMessage) => process.send?.(message)
const { RINGHOOK_TEST_PREFIX: prefix } = process.env
if (!prefix || !process.send) throw new Error('doomed-worker.ts is started by killed-worker.test.ts')

const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 })
const worker = createWorker({ connection: redis, prefix, logger: silentLogger, concurrency: 4, ...FAST_LOCKS })
worker.on('notification.responded', async (event, context) => {
  // 'yes': killed after its effect, before the job completes; otherwise killed before the effect.
  const applied = event.data.response === 'yes' ? await recordAnswer(redis, prefix, event, context) : false
  send({ type: 'handling', eventId: event.data.event_id, applied })
  await new Promise<never>(() => {})
})
worker.worker.once('ready', () => send({ type: 'ready' }))
