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

export interface EnqueueObserver {
  /**
   * Stored with the job (string values only; W3C trace context, say) and handed to `process`, so a
   * worker's run can continue the trace of the delivery that stored it. Read once, as the job is built.
   */
  readonly trace?: Record<string, string>
  /** Redis stored the job (`ok`), or failed to within the timeout. */
  end?(ok: boolean, durationMs: number): void
}

export interface ProcessedJob {
  event: string
  queue: string
  jobId: string
  /** This run, from 1. */
  attempt: number
  trace: Readonly<Record<string, string>> | undefined
}

export interface JobObserver {
  /** Runs the job's handlers: wrap `run` to give them a context. Call it once and return what it returns. */
  run?<T>(run: () => T): T
  /** The handlers finished: `ok`, or failed (the job is retried unless that was its last attempt). */
  end?(ok: boolean, durationMs: number): void
}
