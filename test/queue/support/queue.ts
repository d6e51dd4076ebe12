import { randomUUID } from 'node:crypto'

/** A BullMQ key prefix no other test run uses, so suites sharing the Redis never meet. */
export const queuePrefix = (label: string): string => `rhtest-${label}-${randomUUID()}`

/**
 * Worker settings for tests: a lapsed lock is noticed within a second or so, instead of BullMQ's
 * 30 s defaults, so a killed worker's job runs again quickly.
 */
export const FAST_LOCKS = { lockDurationMs: 1_000, stalledIntervalMs: 300 } as const

/** Retries a test can wait for: a few attempts 50 ms, 100 ms, 200 ms apart. */
export const FAST_JOBS = { attempts: 3, backoffMs: 50 } as const
