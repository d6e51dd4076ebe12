import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createEventQueue, createWorker, type JobsCliIo, runJobsCli } from '@ringhook/bullmq'
import { silentLogger } from '@ringhook/core'
import { parseEvent } from '@ringhook/core/api'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAST_LOCKS, queuePrefix } from '../../../test/queue/support/queue.js'
import { poll } from '../../../test/redis/support/poll.js'
import { connectRedis, dropPrefix } from '../../../test/redis/support/redis.js'
import { NOW_S, responded } from '../../../test/support/events.js'

const prefix = queuePrefix('cli')
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url))
let redis: Redis
let events: ReturnType<typeof createEventQueue>
let worker: ReturnType<typeof createWorker>
let fixed = false
const ids: string[] = []
const handled: string[] = []

/** Runs the CLI against this suite's queue; resolves with its exit code and what it wrote. */
async function cli(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const io: JobsCliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} }
  const code = await runJobsCli([...argv, '--prefix', prefix, '--redis', 'redis://127.0.0.1:6379'], io)
  return { code, stdout: out.join(''), stderr: err.join('') }
}

beforeAll(async () => {
  redis = await connectRedis()
  events = createEventQueue({ connection: redis, prefix, jobs: { attempts: 2, backoffMs: 10 } })
  worker = createWorker({ connection: redis, prefix, logger: silentLogger, ...FAST_LOCKS })
  worker.on('notification.responded', (event) => {
    if (!fixed) throw new Error(`the CRM refused ${event.data.event_id}`)
    handled.push(event.data.event_id)
  })
  for (const eventId of ['evt_cli_1', 'evt_cli_2', 'evt_cli_3']) {
    const parsed = parseEvent(JSON.parse(JSON.stringify(responded(eventId))))
    if (!parsed.ok) throw new Error('unreachable')
    const key = `app_demo:event:${eventId}`
    ids.push(
      await events.enqueue(parsed.event, { key, eventId, signedAt: NOW_S, receivedAt: new Date(), secretIndex: 0 }),
    )
  }
  await poll('three failed jobs', async () =>
    (await events.queue.getJobCounts('failed')).failed === 3 ? true : undefined,
  )
})

afterAll(async () => {
  await worker?.close({ timeoutMs: 1_000 })
  await events?.close()
  if (redis) await dropPrefix(redis, `${prefix}:`)
  redis?.disconnect()
})

describe('the jobs commands', () => {
  it('lists failed jobs with their event, attempts and reason, as lines or JSON', async () => {
    const listed = await cli('list')
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trim().split('\n')
    expect(lines).toHaveLength(3)
    for (const id of ids) expect(listed.stdout).toContain(id)
    expect(lines[0]).toMatch(/notification\.responded {2}attempts=2 .* the CRM refused evt_cli_\d/)

    const json = await cli('list', '--json', '--limit', '2')
    const jobs = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(jobs).toHaveLength(2)
    expect(jobs[0]).toMatchObject({ name: 'notification.responded', attemptsMade: 2, delivery: { signedAt: NOW_S } })
    expect((await cli('list', '--state', 'completed')).stdout).toMatch(/No completed jobs in ringhook/)
  })

  it('shows one job with its original payload and delivery metadata', async () => {
    const shown = await cli('show', ids[0] as string)
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toMatchObject({
      id: ids[0],
      event: { event: 'notification.responded', data: { event_id: 'evt_cli_1' } },
      delivery: { key: 'app_demo:event:evt_cli_1', eventId: 'evt_cli_1' },
    })
    expect(await cli('show', 'rh-missing')).toMatchObject({ code: 1, stderr: 'No job rh-missing in ringhook.\n' })
  })

  it('replays one job, then every failed one; the worker runs them again', async () => {
    fixed = true
    const one = await cli('replay', ids[0] as string)
    expect(one).toMatchObject({ code: 0, stdout: `replayed ${ids[0]}\n` })
    await poll('the replay ran', async () => (handled.includes('evt_cli_1') ? true : undefined))

    const all = await cli('replay', '--all')
    expect(all.code).toBe(0)
    expect(all.stdout.trim().split('\n').sort()).toEqual([`replayed ${ids[1]}`, `replayed ${ids[2]}`].sort())
    await poll('every replay ran', async () => (handled.length === 3 ? true : undefined))
    expect(handled.sort()).toEqual(['evt_cli_1', 'evt_cli_2', 'evt_cli_3'])

    const again = await cli('replay', ids[0] as string)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/not replayed .*: the job is completed, not failed/)
  })

  it('says what is wrong with its arguments (exit 2) and when Redis cannot be reached (exit 1)', async () => {
    expect((await cli()).code).toBe(2)
    expect(await cli('list', '--state', 'lost')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--state must be one of/),
    })
    expect(await cli('replay')).toMatchObject({ code: 2, stderr: expect.stringMatching(/replay takes job ids/) })
    expect(await cli('explode')).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown command: explode/) })
    const out: string[] = []
    const io: JobsCliIo = { stdout: (t) => out.push(t), stderr: (t) => out.push(t), env: {} }
    expect(await runJobsCli(['list', '--redis', 'redis://user:hunter2@127.0.0.1:1'], io)).toBe(1)
    expect(out.join('')).toMatch(/Cannot reach Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:1/)
    expect(out.join('')).not.toContain('hunter2')
  })

  it('runs as the deprecated ringhook-jobs bin, which says to use ringhook jobs', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, '--help'])
    expect(stdout).toMatch(/^Usage: ringhook jobs <command>/)
    expect(stderr).toContain('ringhook-jobs is deprecated')
    expect(stderr).toContain('npx @ringhook/cli jobs')
  })
})
