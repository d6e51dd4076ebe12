import type { DeliveryInfo, UnknownEvent, WebhookEvent } from '@ringhook/core'
import type { Job, Queue } from 'bullmq'
import { fromJobData } from './job-data.js'

/** States a job can be listed in. */
export const JOB_STATES = ['failed', 'completed', 'active', 'waiting', 'delayed'] as const
/** One of {@link JOB_STATES}. */
export type JobState = (typeof JOB_STATES)[number]

/** A stored job as the app sees it: the original event and delivery, and what happened to it. */
export interface StoredJob {
  /** The job id: `rh-` and a hash of the delivery's dedup key (see {@link jobIdFor}). */
  id: string
  /** The event name. */
  name: string
  /** The event as received, or undefined when the job's data is not a readable ringhook job. */
  event: WebhookEvent | UnknownEvent | undefined
  /** The delivery it came in, or undefined when the job's data is not a readable ringhook job. */
  delivery: DeliveryInfo | undefined
  /** Runs that finished (failed or succeeded). */
  attemptsMade: number
  /** The last failure's message. */
  failedReason: string | undefined
  /** When the job was stored. */
  createdAt: Date
  /** When it finished (completed or failed for good); undefined before. */
  finishedAt: Date | undefined
}

/**
 * Lists jobs in one state, newest first: `'failed'` are the dead letters, failed for good
 * after their last attempt.
 * @example for (const job of await listJobs(events.queue, 'failed')) console.log(job.id, job.failedReason)
 */
export async function listJobs(
  queue: Queue,
  state: JobState,
  { offset = 0, limit = 50 }: { offset?: number; limit?: number } = {},
): Promise<StoredJob[]> {
  const jobs = await queue.getJobs([state === 'waiting' ? 'wait' : state], offset, offset + limit - 1, false)
  return jobs.filter((job): job is Job => Boolean(job)).map(toStoredJob)
}

/** Reads one job, or undefined when no job has this id. */
export async function getJob(queue: Queue, id: string): Promise<StoredJob | undefined> {
  const job = await queue.getJob(id)
  return job ? toStoredJob(job) : undefined
}

/** @deprecated Use {@link JobReplayResult} (`ReplayResult` is `@ringhook/capture`'s, for a captured delivery); removed in 0.3.0. */
export type ReplayResult = JobReplayResult

/** Whether a job was replayed, and why not when it was not. */
export type JobReplayResult =
  | {
      /** The job. */
      id: string
      /** It runs again. */
      replayed: true
    }
  | {
      /** The job. */
      id: string
      /** Left as it was. */
      replayed: false
      /** Why: no such job, or it is not failed. */
      reason: string
    }

/**
 * Runs a failed job again, with its original event and delivery and a fresh set of attempts.
 * Only failed jobs can be replayed; a job in any other state is reported, not touched.
 * @example await replayJob(events.queue, 'rh-3f1c…')
 */
export async function replayJob(queue: Queue, id: string): Promise<JobReplayResult> {
  const job = await queue.getJob(id)
  if (!job) return { id, replayed: false, reason: 'no such job' }
  const state = await job.getState()
  if (state !== 'failed') return { id, replayed: false, reason: `the job is ${state}, not failed` }
  await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true })
  return { id, replayed: true }
}

/** Replays every failed job, oldest first, in batches; resolves with one result per job. */
export async function replayFailed(queue: Queue, { batch = 100 } = {}): Promise<JobReplayResult[]> {
  const results: JobReplayResult[] = []
  const seen = new Set<string>()
  // Each replay leaves the failed set, so the oldest remaining are always at the same end.
  for (;;) {
    const jobs = await queue.getJobs(['failed'], 0, batch - 1, true)
    const fresh = jobs
      .filter((job): job is Job => Boolean(job))
      .map((job) => String(job.id))
      .filter((id) => !seen.has(id))
    if (fresh.length === 0) return results
    for (const id of fresh) {
      seen.add(id)
      results.push(await replayJob(queue, id))
    }
  }
}

function toStoredJob(job: Job): StoredJob {
  const decoded = fromJobData(job.data)
  return {
    id: String(job.id),
    name: job.name,
    event: decoded.ok ? decoded.event : undefined,
    delivery: decoded.ok ? decoded.delivery : undefined,
    attemptsMade: job.attemptsMade,
    failedReason: job.failedReason || undefined,
    createdAt: new Date(job.timestamp),
    finishedAt: typeof job.finishedOn === 'number' ? new Date(job.finishedOn) : undefined,
  }
}
