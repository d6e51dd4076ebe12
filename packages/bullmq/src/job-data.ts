import type { DeliveryInfo, UnknownEvent, WebhookEvent } from '@ringhook/core'
import { describeIssues, parseEvent } from '@ringhook/core/api'
import { z } from 'zod'

/**
 * What a job holds: the event as the receiver parsed it (extra fields kept) and the delivery it
 * came in, so a worker, a listing or a replay has the original payload and its metadata.
 */
export const jobDataSchema = z.object({
  /** Version of this shape, so a later release can read jobs an older one stored. */
  v: z.literal(1),
  /** The event as parsed, extra fields included. */
  event: z.looseObject({ event: z.string().min(1) }),
  /** The delivery's {@link DeliveryInfo}, with `receivedAt` as ISO 8601. */
  delivery: z.object({
    key: z.string().min(1),
    eventId: z.string().optional(),
    signedAt: z.number().int(),
    receivedAt: z.iso.datetime(),
    secretIndex: z.number().int().min(0),
  }),
  /** Trace context from the enqueue's instrumentation, for the worker's (see `QueueInstrumentation`). */
  trace: z.record(z.string(), z.string()).optional(),
})

/** See {@link jobDataSchema}. */
export type JobData = z.infer<typeof jobDataSchema>

/** The stored form of an event and its delivery, and the trace context to continue, if any. */
export function toJobData(
  event: WebhookEvent | UnknownEvent,
  delivery: DeliveryInfo,
  trace?: Record<string, string>,
): JobData {
  return {
    v: 1,
    event,
    delivery: {
      key: delivery.key,
      ...(delivery.eventId === undefined ? {} : { eventId: delivery.eventId }),
      signedAt: delivery.signedAt,
      receivedAt: delivery.receivedAt.toISOString(),
      secretIndex: delivery.secretIndex,
    },
    ...(trace === undefined ? {} : { trace }),
  }
}

/** A job's data read back, or why it could not be. */
export type DecodedJob =
  | {
      /** Read and validated. */
      ok: true
      /** The event, validated again. */
      event: WebhookEvent | UnknownEvent
      /** The delivery as handlers know it. */
      delivery: DeliveryInfo
      /** The enqueue's trace context, when an instrumentation stored one. */
      trace: Readonly<Record<string, string>> | undefined
    }
  | {
      /** Not a ringhook job, or its event no longer matches its schema. */
      ok: false
      /** What is wrong with it. */
      message: string
    }

/** Reads a job's data back: the delivery as handlers know it, the event validated again by core's schemas. */
export function fromJobData(data: unknown): DecodedJob {
  const shape = jobDataSchema.safeParse(data)
  if (!shape.success) return { ok: false, message: `not a ringhook job: ${issues(shape.error)}` }
  const parsed = parseEvent(shape.data.event)
  if (!parsed.ok) return { ok: false, message: `the stored event does not match its schema: ${issues(parsed.error)}` }
  const { delivery } = shape.data
  return {
    ok: true,
    event: parsed.event,
    delivery: {
      key: delivery.key,
      eventId: delivery.eventId,
      signedAt: delivery.signedAt,
      receivedAt: new Date(delivery.receivedAt),
      secretIndex: delivery.secretIndex,
    },
    trace: shape.data.trace,
  }
}

const issues = (error: z.core.$ZodError): string => describeIssues(error, '(data)')
