import { parseArgs } from 'node:util'
import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import { DEFAULT_QUEUE_NAME } from './options.js'
import { getJob, JOB_STATES, type JobState, listJobs, replayFailed, replayJob, type StoredJob } from './stored-jobs.js'

/** Where the CLI writes, and the environment it reads (`REDIS_URL`, `RINGHOOK_TIMEOUT_MS`); injectable for tests. */
export interface JobsCliIo {
  /** Where results go. */
  stdout: (text: string) => void
  /** Where errors and the usage go. */
  stderr: (text: string) => void
  /** The environment, for `REDIS_URL` and `RINGHOOK_TIMEOUT_MS`. */
  env: Record<string, string | undefined>
}

/** The help text of `ringhook jobs` (the command of `@ringhook/cli` that runs this). */
const JOBS_USAGE = `Usage: ringhook jobs <command> [options]

Commands:
  list [--state failed|completed|active|waiting|delayed] [--limit N] [--json]
      Jobs in one state, newest first (default: failed, 20).
  show <job-id>
      One job as JSON: its event, delivery metadata and outcome.
  replay <job-id>... | replay --all
      Runs failed jobs again with their original event and delivery.

Options:
  --redis URL      Redis to connect to (default: $REDIS_URL, else redis://127.0.0.1:6379)
  --queue NAME     the queue name (default: ${DEFAULT_QUEUE_NAME})
  --prefix PREFIX  BullMQ's key prefix (default: bull)
  --timeout MS     give up on a Redis that does not answer after this long
                   (default: $RINGHOOK_TIMEOUT_MS, else 30000)
  -h, --help       this text
`

const defaultIo = (): JobsCliIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
})

/**
 * Runs the failed-job commands (`list`, `show`, `replay`) with `argv`, the arguments after `jobs`;
 * resolves with the exit code. `ringhook jobs` of `@ringhook/cli` is this, loaded when that command runs;
 * call it from your own operations script to get the same commands without the CLI.
 * @example process.exitCode = await runJobsCli(['list', '--state', 'failed'])
 */
export async function runJobsCli(argv: readonly string[], io: JobsCliIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${JOBS_USAGE}`)
    return 2
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  if (values.help || !command) {
    ;(values.help ? io.stdout : io.stderr)(JOBS_USAGE)
    return values.help ? 0 : 2
  }
  const state = (values.state ?? 'failed') as JobState
  if (!JOB_STATES.includes(state)) return usageError(io, `--state must be one of ${JOB_STATES.join(', ')}`)
  const limit = Number(values.limit ?? 20)
  if (!Number.isInteger(limit) || limit <= 0) return usageError(io, '--limit must be a positive whole number')
  if (!['list', 'show', 'replay'].includes(command)) return usageError(io, `unknown command: ${command}`)
  if (command === 'show' && rest.length !== 1) return usageError(io, 'show takes one job id')
  if (command === 'replay' && (rest.length === 0) === !values.all)
    return usageError(io, 'replay takes job ids, or --all for every failed job')

  const timeoutMs = timeoutOf(values.timeout ?? io.env.RINGHOOK_TIMEOUT_MS)
  if (timeoutMs === undefined)
    return usageError(io, `--timeout (or RINGHOOK_TIMEOUT_MS) takes milliseconds, from 1 to ${MAX_TIMEOUT_MS}`)
  const url = values.redis ?? io.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  // Fail at once when Redis is unreachable: a CLI should say so, not wait for it. A server that
  // accepts and never answers: each command, the ready check's included, gives up at the timeout.
  const redis = new Redis(url, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  })
  // connect() only says the connection closed; the event says why (a refusal, the ready check's timeout).
  let cause: unknown
  redis.on('error', (error) => {
    cause ??= error
  })
  const timedOut = `no answer within ${timeoutMs} ms (the timeout: --timeout or RINGHOOK_TIMEOUT_MS)`
  const why = (error: unknown) => {
    const message = (error as Error)?.message ?? String(error)
    return /timed? ?out/i.test(message) ? `${timedOut}; ${message}` : message
  }
  try {
    await redis.connect()
  } catch (error) {
    io.stderr(`Cannot reach Redis at ${redact(url)}: ${why(cause ?? error)}\n`)
    redis.disconnect()
    return 1
  }
  const queue = new Queue(values.queue ?? DEFAULT_QUEUE_NAME, {
    connection: redis,
    ...(values.prefix ? { prefix: values.prefix } : {}),
  })
  queue.on('error', () => {})
  try {
    if (command === 'list') return await list(io, queue, state, limit, values.json ?? false)
    if (command === 'show') return await show(io, queue, rest[0] as string)
    return await replay(io, queue, values.all ? undefined : rest)
  } catch (error) {
    io.stderr(`ringhook jobs ${command} failed: ${why(error)}\n`)
    return 1
  } finally {
    await queue.close()
    redis.disconnect()
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      redis: { type: 'string' },
      queue: { type: 'string' },
      prefix: { type: 'string' },
      timeout: { type: 'string' },
      state: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      all: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

function usageError(io: JobsCliIo, message: string): number {
  io.stderr(`${message}\n\n${JOBS_USAGE}`)
  return 2
}

async function list(io: JobsCliIo, queue: Queue, state: JobState, limit: number, json: boolean): Promise<number> {
  const jobs = await listJobs(queue, state, { limit })
  if (json) {
    for (const job of jobs) io.stdout(`${JSON.stringify(job)}\n`)
    return 0
  }
  if (jobs.length === 0) {
    io.stdout(`No ${state} jobs in ${queue.name}.\n`)
    return 0
  }
  for (const job of jobs) io.stdout(`${line(job)}\n`)
  return 0
}

/** One job on one line: id, event, attempts, when, and why it failed. */
function line(job: StoredJob): string {
  const when = (job.finishedAt ?? job.createdAt).toISOString()
  const reason = job.failedReason ? `  ${job.failedReason}` : ''
  return `${job.id}  ${job.name}  attempts=${job.attemptsMade}  ${when}${reason}`
}

async function show(io: JobsCliIo, queue: Queue, id: string): Promise<number> {
  const job = await getJob(queue, id)
  if (!job) {
    io.stderr(`No job ${id} in ${queue.name}.\n`)
    return 1
  }
  io.stdout(`${JSON.stringify(job, null, 2)}\n`)
  return 0
}

async function replay(io: JobsCliIo, queue: Queue, ids: string[] | undefined): Promise<number> {
  const results = ids ? await Promise.all(ids.map((id) => replayJob(queue, id))) : await replayFailed(queue)
  for (const result of results) {
    if (result.replayed) io.stdout(`replayed ${result.id}\n`)
    else io.stderr(`not replayed ${result.id}: ${result.reason}\n`)
  }
  if (results.length === 0) io.stdout('No failed jobs to replay.\n')
  return results.every((result) => result.replayed) ? 0 : 1
}

/** A Redis URL without its password, for messages. */
const redact = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')

/** The longest wait a Node timer holds. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** The timeout in milliseconds, 30 s when not given; `undefined` when what was given is not one. */
function timeoutOf(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return 30_000
  const value = Number(text)
  return Number.isInteger(value) && value > 0 && value <= MAX_TIMEOUT_MS ? value : undefined
}
