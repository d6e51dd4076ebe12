/**
 * Durable processing on BullMQ: a receiver that stores each delivery as a job before it acknowledges
 * it, workers that handle the jobs with retries, and the stored jobs, which `ringhook jobs` of `@ringhook/cli` lists and replays.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { applyOnce, DEFAULT_APPLY_ONCE_TTL_MS, type EvalClient, type RedisCommand } from './apply-once.js'
export { type JobsCliIo, runJobsCli } from './cli.js'
export type { Connection } from './connection.js'
export { EnqueueError } from './errors.js'
export { createEventQueue, type EventQueue, type EventQueueOptions } from './event-queue.js'
export type { EnqueueObserver, JobObserver, ProcessedJob, QueueInstrumentation } from './instrumentation.js'
export { type DecodedJob, fromJobData, type JobData, jobDataSchema, toJobData } from './job-data.js'
export { jobIdFor } from './job-id.js'
export { DEFAULT_JOB_POLICY, DEFAULT_QUEUE_NAME, type JobPolicy } from './options.js'
export { ALL_BUT_GESTURE, type EventSelection } from './selection.js'
export {
  getJob,
  JOB_STATES,
  type JobReplayResult,
  type JobState,
  listJobs,
  type ReplayResult,
  replayFailed,
  replayJob,
  type StoredJob,
} from './stored-jobs.js'
export {
  createWorker,
  type RinghookWorker,
  type WorkerCloseResult,
  type WorkerOptions,
} from './worker/create-worker.js'
export type { AnyJobHandler, JobContext, JobErrorHandler, JobHandler, JobInfo } from './worker/types.js'
