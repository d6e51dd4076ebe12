import {
  type DeliveryInfo,
  type HandlerContext,
  type Receiver,
  RinghookConfigError,
  type UnknownEvent,
  type WebhookEvent,
} from '@ringhook/core'
import { Queue } from 'bullmq'
import { type Connection, type OwnedConnection, producerConnection } from './connection.js'
import { EnqueueError } from './errors.js'
import type { QueueInstrumentation } from './instrumentation.js'
import { toJobData } from './job-data.js'
import { jobIdFor } from './job-id.js'
import { DEFAULT_JOB_POLICY, type JobPolicy, positive, queueName } from './options.js'
import { type EventSelection, selector } from './selection.js'
import { withTimeout } from './timeout.js'

/** Where {@link createEventQueue} stores events, which events, and how their jobs are retried. */
export interface EventQueueOptions {
  /**
   * An ioredis client, or options for one. Pass a client made with `maxRetriesPerRequest: 1`
   * (the default for options) or `enableOfflineQueue: false`, so that an outage fails the add
   * quickly instead of holding it until Redis returns.
   */
  connection: Connection
  /** The BullMQ queue name, shared with the workers. Default `'ringhook'`. */
  name?: string
  /** BullMQ's key prefix, shared with the workers. Default `'bull'`. */
  prefix?: string
  /** The events to put on the queue. Default: every event except `gesture`, unknown ones included. */
  events?: EventSelection
  /**
   * Longest wait for Redis to store a job before the delivery is answered 500 so the service
   * retries. Must be under the receiver's `deadlineMs`. Default: 2000 ms, or half the deadline if shorter.
   */
  addTimeoutMs?: number
  /** Retries, backoff and how long completed jobs are kept. */
  jobs?: JobPolicy
  /** Traces and metrics of each enqueue, e.g. `otelQueueInstrumentation()` from `@ringhook/otel`. */
  instrumentation?: QueueInstrumentation
}

/** Events and their deliveries, stored in Redis for workers to handle. */
export interface EventQueue {
  /**
   * Registers a handler on the receiver that stores each selected event before the delivery is
   * acknowledged. Handlers the app registers on the receiver still run inline (a gesture's vibe).
   * @example events.attach(createReceiver({ secret }))
   */
  attach(receiver: Receiver): Receiver
  /** Stores one event as a job; resolves with the job id once Redis has it. Rejects with `EnqueueError`. */
  enqueue(event: WebhookEvent | UnknownEvent, delivery: DeliveryInfo): Promise<string>
  /** Whether an event of this name is put on the queue. */
  selects(name: string): boolean
  /** The BullMQ queue underneath, for what this interface does not cover. */
  readonly queue: Queue
  /** Closes the queue, and the Redis client if it was made from options. */
  close(): Promise<void>
}

const DEFAULT_ADD_TIMEOUT_MS = 2_000

/**
 * Creates the web process's side: a durable queue of webhook events on BullMQ.
 *
 * @example
 * import { Redis } from 'ioredis'
 *
 * const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 })
 * const events = createEventQueue({ connection: redis })
 * const receiver = events.attach(createReceiver({ secret: process.env.RING_WEBHOOK_SECRET! }))
 * receiver.on('gesture', (event) => vibe('tap').message(`Got ${event.gesture_type}`))
 */
export function createEventQueue(options: EventQueueOptions): EventQueue {
  const where = 'createEventQueue'
  if (!options?.connection) throw new RinghookConfigError(`${where} needs \`connection\`: an ioredis client or options`)
  const name = queueName(where, options.name)
  const fixedTimeout =
    options.addTimeoutMs === undefined ? undefined : positive(where, 'addTimeoutMs', options.addTimeoutMs, 1)
  const selects = selector(options.events)
  const { client, owned } = producerConnection(options.connection)
  const queue = openQueue(where, name, client, options)

  const enqueue = async (
    event: WebhookEvent | UnknownEvent,
    delivery: DeliveryInfo,
    timeoutMs = fixedTimeout ?? DEFAULT_ADD_TIMEOUT_MS,
  ): Promise<string> => {
    const jobId = jobIdFor(delivery.key)
    const observer = options.instrumentation?.enqueue?.({ event: event.event, queue: name })
    const started = observer ? performance.now() : 0
    try {
      // A job with this id already stored (a service retry) makes `add` a no-op that resolves.
      const added = queue.add(event.event, toJobData(event, delivery, observer?.trace), { jobId })
      await withTimeout(added, timeoutMs, () => new EnqueueError(`Redis did not store the job within ${timeoutMs} ms`))
      observer?.end?.(true, performance.now() - started)
      return jobId
    } catch (error) {
      observer?.end?.(false, performance.now() - started)
      if (error instanceof EnqueueError) throw error
      throw new EnqueueError(`Redis could not store the job: ${describe(error)}`, { cause: error })
    }
  }

  return {
    queue,
    selects,
    enqueue: (event, delivery) => enqueue(event, delivery),
    attach(receiver) {
      const { deadlineMs } = receiver.options
      const timeoutMs = fixedTimeout ?? Math.min(DEFAULT_ADD_TIMEOUT_MS, deadlineMs / 2)
      // Past the deadline the receiver would acknowledge (its default) a job Redis never stored.
      if (timeoutMs >= deadlineMs) {
        throw new RinghookConfigError(
          `createEventQueue: addTimeoutMs (${timeoutMs}) must be under the receiver's deadlineMs (${deadlineMs}), or a delivery could be acknowledged before its job is stored`,
        )
      }
      return receiver.onAny((event, context: HandlerContext) => {
        // Unselected events return at once, so a gesture's reply is not held by a promise.
        if (!selects(event.event)) return
        return enqueue(event, context.delivery, timeoutMs).then(() => undefined)
      })
    },
    async close() {
      await queue.close()
      if (owned) client.disconnect()
    },
  }
}

/** The BullMQ queue, its jobs retried and kept as `options.jobs` says. */
function openQueue(where: string, name: string, client: OwnedConnection['client'], options: EventQueueOptions): Queue {
  const policy = { ...DEFAULT_JOB_POLICY, ...options.jobs }
  const attempts = Math.floor(positive(where, 'jobs.attempts', policy.attempts, 5))
  const backoffMs = positive(where, 'jobs.backoffMs', policy.backoffMs, 1_000)
  const keepSeconds = positive(where, 'jobs.keepCompletedSeconds', policy.keepCompletedSeconds, 3_600)
  const queue = new Queue(name, {
    connection: client,
    ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    defaultJobOptions: {
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      // Kept by age only: a count limit could drop a job inside the window its id must guard.
      removeOnComplete: { age: keepSeconds },
      // Failed jobs stay until replayed or removed: they are the dead letters.
      removeOnFail: false,
    },
  })
  // Failures surface through `add`; without a listener an 'error' event would crash the process.
  queue.on('error', () => {})
  return queue
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))
