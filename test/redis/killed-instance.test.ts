// An instance dies mid-handler: its claim must not block the delivery forever. Once the claim's
// in-flight ttl has passed, the service's retry is processed by the surviving instance.
import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { createRedisStore } from '@ringhook/redis'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gesture, post, signed } from '../support/events.js'
import type { DoomedMessage } from './support/doomed-instance.js'
import { type Instance, startInstance } from './support/instances.js'
import { poll } from './support/poll.js'
import { connectRedis, dropPrefix, uniquePrefix } from './support/redis.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const IN_FLIGHT_TTL_MS = 1_500
const prefix = uniquePrefix('killed')
let redis: Redis
let survivor: Instance
let doomed: ChildProcess | undefined

function nextMessage<T extends DoomedMessage['type']>(child: ChildProcess, type: T) {
  return new Promise<Extract<DoomedMessage, { type: T }>>((resolve, reject) => {
    const onMessage = (message: DoomedMessage) => {
      if (message.type !== type) return
      child.off('exit', onExit)
      child.off('message', onMessage)
      resolve(message as Extract<DoomedMessage, { type: T }>)
    }
    const onExit = (code: number | null) => reject(new Error(`the instance exited (${code}) before '${type}'`))
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

beforeAll(async () => {
  redis = await connectRedis()
  survivor = await startInstance('survivor', createRedisStore({ client: redis, prefix }))
})

afterAll(async () => {
  if (doomed?.exitCode === null && doomed.signalCode === null) doomed.kill('SIGKILL')
  await survivor?.close()
  if (redis) await dropPrefix(redis, prefix)
  redis?.disconnect()
})

describe('an instance killed mid-handler', () => {
  it('holds the delivery only until its claim expires; then the retry succeeds on the other', async () => {
    const child = fork(fileURLToPath(new URL('./support/doomed-instance.ts', import.meta.url)), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, RINGHOOK_TEST_PREFIX: prefix, RINGHOOK_TEST_IN_FLIGHT_MS: String(IN_FLIGHT_TTL_MS) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    doomed = child
    const { port } = await nextMessage(child, 'ready')

    const payload = gesture()
    const delivery = await signed(payload)
    const handling = nextMessage(child, 'handling')
    const firstAttempt = post(`http://127.0.0.1:${port}/webhooks`, delivery).then(
      () => 'answered',
      () => 'connection lost',
    )
    expect((await handling).timestamp).toBe(payload.timestamp)
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
    expect(await firstAttempt).toBe('connection lost')

    // Retried at once, the delivery is still claimed by the dead instance: not run twice.
    const early = await post(survivor.url, delivery)
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ error: { code: 'delivery_in_progress' } })
    expect(survivor.handled).toEqual([])

    // The service keeps retrying; once the claim has expired, the survivor runs it.
    const late = await poll(
      'the retry to succeed',
      async () => {
        const attempt = await post(survivor.url, delivery)
        return attempt.status === 409 ? undefined : attempt
      },
      { everyMs: 100 },
    )
    expect(late.status).toBe(200)
    expect(late.body).toMatchObject({ success: true, vibe: { message: 'from survivor' } })
    expect(survivor.handled).toEqual([payload.timestamp])
    expect(await post(survivor.url, delivery)).toMatchObject({ status: 200, body: late.body })
  })
})
