import type { Logger } from '@ringhook/core'
import { type Job, WaitingError } from 'bullmq'
import type { JobRun } from './context.js'

interface Entry {
  job: Job
  token: string | undefined
  run: JobRun
  giveBack: (error: Error) => void
}

/** The jobs a worker is running, so that a shutdown can give back those that do not finish. */
export class RunningJobs {
  readonly #entries = new Set<Entry>()

  /**
   * Runs `work` for `job` until it settles, or until the job is given back: then it rejects with
   * BullMQ's `WaitingError`, which tells the worker the job is already back in the wait list.
   */
  async run(job: Job, token: string | undefined, run: JobRun, work: Promise<void>): Promise<void> {
    let giveBack: (error: Error) => void = () => {}
    const givenBack = new Promise<never>((_, reject) => {
      giveBack = reject
    })
    const entry: Entry = { job, token, run, giveBack }
    this.#entries.add(entry)
    try {
      await Promise.race([work, givenBack])
    } finally {
      this.#entries.delete(entry)
    }
  }

  get size(): number {
    return this.#entries.size
  }

  /**
   * Aborts every running handler's signal and puts its job back in the wait list, for another
   * worker (or this one restarted) to run. Resolves with how many went back. A job that cannot be
   * moved (Redis away) is left to BullMQ's stall check, which returns it once its lock expires.
   */
  async giveBackAll(logger: Logger): Promise<number> {
    const entries = [...this.#entries]
    const moved = await Promise.all(
      entries.map(async ({ job, token, run, giveBack }) => {
        run.abort(new Error('The worker is shutting down; the job goes back to the queue'))
        try {
          await job.moveToWait(token)
          return true
        } catch (error) {
          logger.warn(
            { job_id: job.id, err: error instanceof Error ? error.message : String(error) },
            'Could not give a job back; it runs again once its lock expires',
          )
          return false
        } finally {
          giveBack(new WaitingError())
        }
      }),
    )
    return moved.filter(Boolean).length
  }
}
