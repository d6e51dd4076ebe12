import { applyOnce, createWorker, type RinghookWorker } from '@ringhook/bullmq'
import type { Logger } from '@ringhook/core'
import type { Redis } from 'ioredis'
import { keys } from './config.js'

/**
 * The worker process: the app's handlers, run on the stored events with retries. Each writes its
 * effect with `applyOnce`, keyed by the job's idempotency key, so a job run twice (a worker killed
 * mid-job, a replay) still writes once.
 */
export function createWorkerApp(redis: Redis, queue: string, logger?: Logger): RinghookWorker {
  const { answers, handled } = keys(queue)
  const worker = createWorker({ connection: redis, name: queue, concurrency: 10, ...(logger ? { logger } : {}) })

  worker.on(
    ['app.installed', 'app.activated', 'control.passive', 'app.deactivated', 'app.uninstalled'],
    async (event, ctx) => {
      await applyOnce(redis, `example:${queue}:done:${ctx.job.idempotencyKey}`, [
        ['RPUSH', handled, `${event.event}:${event.user_app_id}`],
      ])
      ctx.logger.info({}, `${event.event} for user ${event.user_app_id}`)
    },
  )

  worker.on('notification.responded', async (event, ctx) => {
    await applyOnce(redis, `example:${queue}:done:${ctx.job.idempotencyKey}`, [
      ['HSET', answers, event.data.event_id, event.data.response],
      ['RPUSH', handled, `${event.event}:${event.user_app_id}`],
    ])
  })

  worker.onError((error, event) => {
    console.error(
      `[worker] gave up on ${event?.event ?? 'a job'}: ${error.message} (replay with: npx @ringhook/cli jobs list)`,
    )
  })
  return worker
}
