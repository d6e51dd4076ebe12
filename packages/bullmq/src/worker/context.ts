import type { DeliveryInfo, Logger } from '@ringhook/core'
import type { JobContext, JobInfo } from './types.js'

/** One run of a job: the context its handlers get, and the controller behind its signal. */
export class JobRun implements JobContext {
  readonly logger: Logger
  readonly delivery: DeliveryInfo
  readonly job: JobInfo
  readonly #controller = new AbortController()

  constructor(parent: Logger, event: string, delivery: DeliveryInfo, job: JobInfo) {
    this.delivery = delivery
    this.job = job
    this.logger = parent.child({ event, delivery_key: delivery.key, job_id: job.id, attempt: job.attempt })
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  abort(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason)
  }
}
