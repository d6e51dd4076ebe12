import { type EventName, type Logger, RinghookConfigError, RinghookError } from '@ringhook/core'
import { consoleLogger, Registry, registering } from '@ringhook/core/internal'
import { Worker as BullWorker, type ConnectionOptions, type Job, UnrecoverableError } from 'bullmq'
import { type Connection, workerConnection } from '../connection.js'
import type { QueueInstrumentation } from '../instrumentation.js'
import { fromJobData } from '../job-data.js'
import { positive, queueName } from '../options.js'
import { JobRun } from './context.js'
import { RunningJobs } from './running.js'
import { Tracked } from './tracked.js'
import type { AnyJobHandler, JobContext, JobErrorHandler, JobHandler, JobInfo } from './types.js'

/** Where a worker takes jobs from, how many at once, and how it logs. */
export interface WorkerOptions {
  /** An ioredis client (read for its settings; the worker makes its own connections) or options. */
  connection: Connection
  /** The queue name the web processes use. Default `'ringhook'`. */
  name?: string
  /** BullMQ's key prefix the web processes use. Default `'bull'`. */
  prefix?: string
  /** Jobs run at once by this worker. Default 10: handlers mostly wait on other services. */
  concurrency?: number
  /** A pino-compatible logger. Default: warnings and errors to the console. */
  logger?: Logger
  /**
   * How long a running job's lock lasts; the worker renews it at half this while the handler
   * runs. A worker that dies stops renewing, and its jobs run again elsewhere once it lapses.
   * Default 30000 ms.
   */
  lockDurationMs?: number
  /** How often the worker looks for jobs whose lock lapsed. Default 30000 ms. */
  stalledIntervalMs?: number
  /** Start taking jobs at once. Default true; register handlers in the same tick, or pass false and call `run()`. */
  autorun?: boolean
  /** Traces and metrics of each job run, e.g. `otelQueueInstrumentation()` from `@ringhook/otel`. */
  instrumentation?: QueueInstrumentation
}

/** What `worker.close()` found. */
export interface WorkerCloseResult {
  /** Whether every running job finished within the timeout. */
  drained: boolean
  /** Jobs given back to the queue because their handlers had not finished. */
  returned: number
}

/** A process that runs webhook handlers on jobs from the queue, with retries. */
export interface RinghookWorker {
  /**
   * Registers a handler for one event or several: the same typed handlers as a receiver's.
   * @example worker.on('notification.responded', async (event, ctx) => saveAnswer(event.data.event_id, event.data.response, ctx.job.idempotencyKey))
   */
  on<N extends EventName>(name: N | readonly N[], handler: JobHandler<N>): RinghookWorker
  /** Registers a handler for every event, including ones this version does not know. */
  onAny(handler: AnyJobHandler): RinghookWorker
  /** Registers a handler for jobs failed for good (after their last attempt). */
  onError(handler: JobErrorHandler): RinghookWorker
  /** Removes a handler registered with `on` or `onAny`. */
  off(handler: JobHandler<EventName> | AnyJobHandler): RinghookWorker
  /** Starts taking jobs (only needed with `autorun: false`). */
  run(): void
  /**
   * Stops taking jobs and waits up to `timeoutMs` (default 10 s) for the running ones. Those still
   * running then are given back to the queue, their handlers' signals aborted, so another worker
   * runs them. Never rejects on slow handlers.
   * @example process.once('SIGTERM', async () => process.exit((await worker.close()).drained ? 0 : 1))
   */
  close(options?: { timeoutMs?: number }): Promise<WorkerCloseResult>
  /** The BullMQ worker underneath, for its events and what this interface does not cover. */
  readonly worker: BullWorker
}

const DEFAULT_CLOSE_TIMEOUT_MS = 10_000

/**
 * Creates a worker that runs the app's handlers on the events the web processes stored. Run as
 * many as you like, on any number of machines: each job is run by one worker at a time.
 *
 * @example
 * const worker = createWorker({ connection: { host: '127.0.0.1', port: 6379 } })
 * worker.on('notification.responded', async (event) => saveAnswer(event.data.event_id, event.data.response))
 * worker.onError((error, event) => console.error(error.message, event?.event))
 */
export function createWorker(options: WorkerOptions): RinghookWorker {
  const where = 'createWorker'
  if (!options?.connection) throw new RinghookConfigError(`${where} needs \`connection\`: an ioredis client or options`)
  const parts: WorkerParts = {
    name: queueName(where, options.name),
    logger: options.logger ?? consoleLogger(),
    registry: new Registry<JobContext, JobErrorHandler>(),
    instrumentation: options.instrumentation,
  }
  const { logger, registry } = parts
  const running = new RunningJobs()
  const reports = new Tracked()
  const worker = new BullWorker(parts.name, jobProcessor(parts, running), {
    // ioredis' own options type; BullMQ declares a looser copy of it that differs in callback types.
    connection: workerConnection(options.connection) as ConnectionOptions,
    ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    concurrency: Math.floor(positive(where, 'concurrency', options.concurrency, 10)),
    lockDuration: positive(where, 'lockDurationMs', options.lockDurationMs, 30_000),
    stalledInterval: positive(where, 'stalledIntervalMs', options.stalledIntervalMs, 30_000),
    autorun: options.autorun ?? true,
  })
  worker.on('failed', (job, error) => {
    // `finishedOn` is set only when the job went to the failed set rather than back for a retry.
    if (job && typeof job.finishedOn === 'number') reports.track(reportFailure(parts, job, error))
  })
  worker.on('stalled', (jobId) => {
    logger.warn({ job_id: jobId }, 'A job lost its worker (it died or blocked its event loop); it runs again')
  })
  // Connection failures while Redis is away: BullMQ reconnects by itself.
  worker.on('error', (error) => logger.warn({ err: describe(error) }, 'Worker error'))

  let closing: Promise<WorkerCloseResult> | undefined
  const facade: RinghookWorker = {
    worker,
    ...registering(registry, () => facade),
    run() {
      worker.run().catch((error) => logger.error({ err: describe(error) }, 'The worker stopped'))
    },
    close(closeOptions = {}) {
      closing ??= shutDown(worker, running, reports, logger, closeOptions.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS)
      return closing
    },
  }
  return facade
}

/** What a worker's job runs and its failure reports share. */
interface WorkerParts {
  name: string
  logger: Logger
  registry: Registry<JobContext, JobErrorHandler>
  instrumentation: QueueInstrumentation | undefined
}

/** BullMQ's processor: runs a job's handlers, tracked by `running` so that `close()` can hand them back. */
function jobProcessor(parts: WorkerParts, running: RunningJobs) {
  const { name, logger, registry } = parts
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<void> => {
    const decoded = fromJobData(job.data)
    // No retry can make a job readable: fail it now, reported to onError.
    if (!decoded.ok) throw new UnrecoverableError(`JobDataError: ${decoded.message}`)
    const info = jobInfo(name, job)
    const run = new JobRun(logger, decoded.event.event, decoded.delivery, info)
    signal?.addEventListener('abort', () => run.abort(signal.reason), { once: true })
    const observer = parts.instrumentation?.process?.({
      event: decoded.event.event,
      queue: name,
      jobId: info.id,
      attempt: info.attempt,
      trace: decoded.trace,
    })
    const started = observer ? performance.now() : 0
    const handle = async (): Promise<void> => {
      // The receiver's rule: every handler runs to the end; the attempt fails if any of them failed.
      const result = await registry.run(decoded.event, run)
      if (!result.ok) throw failure(result.errors)
    }
    try {
      await running.run(job, token, run, observer?.run ? observer.run(handle) : handle())
      observer?.end?.(true, performance.now() - started)
    } catch (error) {
      observer?.end?.(false, performance.now() - started)
      if (!(error instanceof Error && error.name === 'WaitingError'))
        run.logger.warn(
          { err: describe(error) },
          'A handler failed; the job is retried unless this was its last attempt',
        )
      throw error
    }
  }
}

/** A job failed for good: logged, and handed to every `onError` handler. */
async function reportFailure(parts: WorkerParts, job: Job, cause: Error): Promise<void> {
  const decoded = fromJobData(job.data)
  const run = decoded.ok
    ? new JobRun(parts.logger, decoded.event.event, decoded.delivery, jobInfo(parts.name, job))
    : undefined
  const error = new RinghookError(
    'handler_error',
    `Job ${job.id} (${job.name}) failed for good after ${job.attemptsMade} attempt(s): ${cause.message}`,
    'handler',
    { cause },
  )
  const log = run?.logger ?? parts.logger
  log.error({ code: error.code, job_id: job.id, err: describe(cause) }, error.message)
  for (const handler of parts.registry.errorHandlers) {
    try {
      await handler(error, decoded.ok ? decoded.event : undefined, run)
    } catch (failure) {
      log.error({ phase: 'error_handler', err: describe(failure) }, 'An onError handler threw')
    }
  }
}

async function shutDown(
  worker: BullWorker,
  running: RunningJobs,
  reports: Tracked,
  logger: Logger,
  timeoutMs: number,
): Promise<WorkerCloseResult> {
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0)
    throw new RangeError(`timeoutMs must be a finite number >= 0, got ${String(timeoutMs)}`)
  logger.info({ running: running.size }, 'Worker closing: no new jobs are taken')
  const closed = worker.close()
  closed.catch(() => {})
  let returned = 0
  if ((await within(closed, timeoutMs)) === 'timeout') {
    returned = await running.giveBackAll(logger)
    logger.warn({ returned, timeout_ms: timeoutMs }, 'Worker closed with jobs still running: given back to the queue')
    // With the jobs given back the worker closes at once, unless Redis is away: do not hang on it.
    await within(closed, timeoutMs)
  }
  await within(reports.idle(), timeoutMs)
  return { drained: returned === 0, returned }
}

async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(resolve, ms, 'timeout')
  })
  try {
    const done = () => 'done' as const
    return await Promise.race([work.then(done, done), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** What an attempt failed with: the one handler's error, or every one when several failed. */
function failure(errors: readonly unknown[]): unknown {
  if (errors.length === 1) return errors[0]
  const messages = errors.map((error) => (error instanceof Error ? error.message : String(error)))
  return new AggregateError(errors, `${errors.length} handlers failed: ${messages.join('; ')}`)
}

function jobInfo(queue: string, job: Job): JobInfo {
  const id = String(job.id)
  return { id, queue, attempt: job.attemptsMade + 1, attempts: job.opts.attempts ?? 1, idempotencyKey: id }
}

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)
