import { RinghookConfigError } from '@ringhook/core'

/** How a job is retried when a worker's handler fails, and how long finished jobs are kept. */
export interface JobPolicy {
  /** Runs of a job before it is failed for good. Default 5. */
  attempts?: number
  /** Wait before the first retry, doubling at each next one. Default 1000 ms. */
  backoffMs?: number
  /**
   * How long a completed job is kept, seconds. While it is kept, its id turns away a second job
   * for the same event, so keep it past the service's retries and the signature window (10 min).
   * Default 3600 (one hour).
   */
  keepCompletedSeconds?: number
}

/** The queue name the event queue, the workers and the CLI share unless told otherwise. */
export const DEFAULT_QUEUE_NAME = 'ringhook'
/** 5 attempts, 1 s before the first retry, completed jobs kept an hour. */
export const DEFAULT_JOB_POLICY = Object.freeze({ attempts: 5, backoffMs: 1_000, keepCompletedSeconds: 3_600 })

export const positive = (where: string, name: string, value: number | undefined, fallback: number): number => {
  const v = value ?? fallback
  if (!Number.isFinite(v) || v <= 0)
    throw new RinghookConfigError(`${where}: ${name} must be a positive number, got ${String(v)}`)
  return v
}

export function queueName(where: string, name: string | undefined): string {
  const resolved = name ?? DEFAULT_QUEUE_NAME
  if (typeof resolved !== 'string' || resolved.length === 0 || resolved.includes(':'))
    throw new RinghookConfigError(`${where}: queue name must be a non-empty string without ':', got ${resolved}`)
  return resolved
}
