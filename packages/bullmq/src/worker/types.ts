import type { EventName, EventOf, HandlerContext, RinghookError, UnknownEvent, WebhookEvent } from '@ringhook/core'
import type { Awaitable } from '@ringhook/core/adapter'

/** The job a handler runs in. */
export interface JobInfo {
  /** The job id: a hash of the delivery's dedup key (see `jobIdFor`). */
  id: string
  /** The queue it came from. */
  queue: string
  /** This run, from 1. */
  attempt: number
  /** Runs allowed before the job is failed for good. */
  attempts: number
  /**
   * The same for every run of this event: retries, other workers, replays. Key a handler's own
   * side effects with it (a unique column, `SET NX`, or another API's idempotency key).
   */
  idempotencyKey: string
}

/** What a worker's handlers get: the receiver's context (logger, signal, delivery) and the job. */
export interface JobContext extends HandlerContext {
  /**
   * Aborts when the worker is closing and gives the job back to the queue because this handler
   * did not finish in time, or when BullMQ cancels the job.
   */
  signal: AbortSignal
  /** The job: its id, queue, attempt and idempotency key. */
  job: JobInfo
}

/**
 * A worker's handler for one or more events. A receiver's `Handler<N>` fits as it is; what a
 * gesture handler returns is ignored (its vibe was answered by the web process).
 */
export type JobHandler<N extends EventName> = (event: EventOf<N>, context: JobContext) => Awaitable<unknown>

/** A worker's handler for every event, including ones this version does not know. */
export type AnyJobHandler = (event: WebhookEvent | UnknownEvent, context: JobContext) => Awaitable<unknown>

/**
 * Hears of jobs failed for good: after their last attempt, with data no worker can read, or
 * stalled too often. A receiver's `ErrorHandler` fits as it is.
 */
export type JobErrorHandler = (
  error: RinghookError,
  event: WebhookEvent | UnknownEvent | undefined,
  context: JobContext | undefined,
) => Awaitable<undefined | void>
