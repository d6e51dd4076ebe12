// A worker is killed with SIGKILL in the middle of its jobs, one after its side effect and one
// before it. Another worker must run both again, and with the documented recipe (applyOnce keyed
// by the job's idempotency key) each event's effect must happen exactly once.
import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { createWorker, type JobContext } from '@ringhook/bullmq'
import { silentLogger } from '@ringhook/core'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { connectRedis, dropPrefix } from '../redis/support/redis.js'
import { deliver } from '../redis/support/service.js'
import { responded, signed } from '../support/events.js'
import type { DoomedWorkerMessage } from './support/doomed-worker.js'
import { effects, recordAnswer } from './support/effects.js'
import { FAST_LOCKS, queuePrefix } from './support/queue.js'
import { startWeb, type Web } from './support/web.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const prefix = queuePrefix('killed')
let redis: Redis
let web: Web
let doomed: ChildProcess | undefined

function messages(child: ChildProcess) {
  const received: DoomedWorkerMessage[] = []
  child.on('message', (message: DoomedWorkerMessage) => received.push(message))
  return received
}

beforeAll(async () => {
  redis = await connectRedis()
  web = await startWeb({ connection: redis, prefix })
})

afterAll(async () => {
  if (doomed?.exitCode === null && doomed.signalCode === null) doomed.kill('SIGKILL')
  await web?.close()
  if (redis) await dropPrefix(redis, `${prefix}:`)
  redis?.disconnect()
})

describe('a worker killed mid-job', () => {
  it('has its jobs run again by another worker, each effect happening once', async () => {
    const child = fork(fileURLToPath(new URL('./support/doomed-worker.ts', import.meta.url)), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, RINGHOOK_TEST_PREFIX: prefix },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    doomed = child
    const received = messages(child)
    await poll('the worker is ready', async () => (received.some((m) => m.type === 'ready') ? true : undefined), {
      timeoutMs: 15_000,
    })

    const afterEffect = responded('evt_after_effect', 'yes')
    const beforeEffect = responded('evt_before_effect', 'no')
    for (const payload of [afterEffect, beforeEffect]) {
      expect((await deliver(await signed(payload), [web.url])).status).toBe(200)
    }
    await poll('both jobs are mid-handler', async () =>
      received.filter((m) => m.type === 'handling').length === 2 ? true : undefined,
    )
    expect(received).toContainEqual({ type: 'handling', eventId: 'evt_after_effect', applied: true })
    expect(await effects(redis, prefix)).toEqual(['evt_after_effect'])

    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited

    // The survivor starts after the kill, so it can only get the jobs back through BullMQ's stall check.
    const survivor = createWorker({ connection: redis, prefix, logger: silentLogger, ...FAST_LOCKS })
    const runs: { eventId: string; applied: boolean; context: JobContext }[] = []
    survivor.on('notification.responded', async (event, context) => {
      runs.push({ eventId: event.data.event_id, applied: await recordAnswer(redis, prefix, event, context), context })
    })
    try {
      await poll('the survivor ran both jobs', async () => (runs.length === 2 ? true : undefined), {
        timeoutMs: 10_000,
      })
      expect(
        runs.map(({ eventId, applied }) => ({ eventId, applied })).sort((a, b) => a.eventId.localeCompare(b.eventId)),
      ).toEqual([
        { eventId: 'evt_after_effect', applied: false },
        { eventId: 'evt_before_effect', applied: true },
      ])
      expect(await effects(redis, prefix)).toEqual(['evt_after_effect', 'evt_before_effect'])
      const queue = web.events.queue
      await poll('both jobs completed', async () =>
        (await queue.getJobCounts('completed')).completed === 2 ? true : undefined,
      )
    } finally {
      await survivor.close({ timeoutMs: 1_000 })
    }
  })
})
