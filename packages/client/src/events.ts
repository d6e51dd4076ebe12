import { type EventResponseRecord, eventResponseRecordSchema } from '@ringhook/core/api'
import { type CallOptions, type ClientContext, read } from './context.js'
import type { LinkedResult } from './dedup-link.js'
import { ValidationError } from './errors.js'
import { requireId, segment } from './validate.js'

export interface ResponseOptions extends CallOptions {
  /**
   * The app the event belongs to, for the dedup link. Needed only when the event was not
   * triggered by this client instance (which remembers the app of its own triggers).
   */
  appId?: string
}

export interface WaitOptions extends ResponseOptions {
  /** Pause between polls. Default 2000 ms: each poll counts against the key's 100 requests per minute. */
  intervalMs?: number
  /** When to stop polling and return the last, still pending, record. Default 60 000 ms. */
  timeoutMs?: number
}

/** The answers to triggers that asked the user something. */
export interface EventsApi {
  /** GET /events/:event_id/response: the response to a trigger, `pending` or `responded`. */
  response(eventId: string, options?: ResponseOptions): Promise<EventResponseRecord & LinkedResult>
  /**
   * Polls until the user responds or `timeoutMs` passes. A timeout is not an error: the
   * returned record then has status `pending`, as await mode returns status `timeout`.
   * @example
   * const record = await client.events.waitForResponse(eventId, { timeoutMs: 30_000 })
   * if (record.status === 'responded') console.log(record.response)
   */
  waitForResponse(eventId: string, options?: WaitOptions): Promise<EventResponseRecord & LinkedResult>
}

export function eventsApi(ctx: ClientContext): EventsApi {
  const response = async (eventId: string, options: ResponseOptions = {}) => {
    const record: EventResponseRecord & LinkedResult = await read(
      ctx,
      {
        endpoint: '/events/:event_id/response',
        path: `/events/${segment(requireId('eventId', eventId))}/response`,
        schema: eventResponseRecordSchema,
      },
      options,
    )
    const appId = options.appId ?? ctx.link?.appOf(eventId)
    if (ctx.link && record.status === 'responded' && record.response) {
      if (appId === undefined) {
        ctx.options.logger.warn({ event_id: eventId }, 'Dedup link: unknown app for this event; pass { appId }')
      } else {
        record.alreadyHandled = await ctx.link.markHandled({
          appId,
          eventId,
          response: record.response,
          respondedAt: record.responded_at ?? '',
        })
      }
    }
    return record
  }

  return {
    response,
    async waitForResponse(eventId, options = {}) {
      const intervalMs = positive('intervalMs', options.intervalMs, 2000)
      const timeoutMs = positive('timeoutMs', options.timeoutMs, 60_000)
      const { clock } = ctx.options
      const deadline = clock.now() + timeoutMs
      for (;;) {
        const record = await response(eventId, options)
        const left = deadline - clock.now()
        if (record.status === 'responded' || left <= 0) return record
        await clock.sleep(Math.min(intervalMs, left), options.signal)
      }
    },
  }
}

function positive(field: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback
  if (Number.isFinite(v) && v > 0) return v
  throw new ValidationError([{ field, message: 'must be a positive number' }])
}
