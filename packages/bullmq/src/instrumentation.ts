/**
 * Watches both halves of the queue, for traces and metrics: `otelQueueInstrumentation()` from
 * `@ringhook/otel` is one. Pass the same one to `createEventQueue` and `createWorker`. Without one no
 * instrumentation work is done. Callbacks must not throw.
 */
export interface QueueInstrumentation {
  /** The web side is adding a job for an event. */
  enqueue?(job: { event: string; queue: string }): EnqueueObserver | undefined
  /** A worker starts a run of a job; `trace` is what the enqueue observer stored with it. */
  process?(job: ProcessedJob): JobObserver | undefined
}

/** Watches one enqueue: the trace context it stores with the job, and how long Redis took. */
export interface EnqueueObserver {
  /**
   * Stored with the job (string values only; W3C trace context, say) and handed to `process`, so a
   * worker's run can continue the trace of the delivery that stored it. Read once, as the job is built.
   */
  readonly trace?: Record<string, string>
  /** Redis stored the job (`ok`), or failed to within the timeout. */
  end?(ok: boolean, durationMs: number): void
}

/** The job a worker is about to run, as an instrumentation sees it: no payload, no user data. */
export interface ProcessedJob {
  /** The event's name (`gesture`, `app.installed`...). */
  event: string
  /** The BullMQ queue's name. */
  queue: string
  /** BullMQ's id of the job (derived from the delivery's hashed dedup key, not from user data). */
  jobId: string
  /** This run, from 1. */
  attempt: number
  /** The trace context the enqueue stored with the job, if any. */
  trace: Readonly<Record<string, string>> | undefined
}

/** Watches one run of a job: wraps its handlers and hears how it ended. */
export interface JobObserver {
  /** Runs the job's handlers: wrap `run` to give them a context. Call it once and return what it returns. */
  run?<T>(run: () => T): T
  /** The handlers finished: `ok`, or failed (the job is retried unless that was its last attempt). */
  end?(ok: boolean, durationMs: number): void
}
