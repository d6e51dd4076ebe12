import type { Awaitable } from '../awaitable.js'
import type { RinghookError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { EventName, EventOf, GestureReply, UnknownEvent, VibePayload, WebhookEvent } from '../schemas/index.js'
import type { Vibe } from '../vibe.js'

/** About the HTTP delivery that carried an event. */
export interface DeliveryInfo {
  /** The dedup key: derived from `data.event_id`, or from the delivery's stable fields. */
  key: string
  /** `data.event_id`, when the event has one. */
  eventId: string | undefined
  /** The signed timestamp header, Unix seconds. */
  signedAt: number
  /** When this receiver got the request. */
  receivedAt: Date
  /** Which configured secret matched (0 is the first): watch it to finish a rotation. */
  secretIndex: number
}

/** What every handler gets beside the event. */
export interface HandlerContext {
  /** A child of the receiver's logger bound to this event. */
  logger: Logger
  /** Aborts when the receiver's deadline passes and the answer goes out without this handler. */
  signal: AbortSignal
  /** Which delivery this is: its dedup key, when it was signed and received, which secret matched. */
  delivery: DeliveryInfo
  /**
   * How many vibes the event's user has left in the receiver's budget (option `vibeBudget`), to choose a
   * reply by; undefined without one.
   */
  vibesLeft?(): Promise<number | undefined>
}

/** What a gesture handler may return: a vibe (builder or plain object), a full reply, or nothing. */
export type GestureReplyValue = Vibe | VibePayload | GestureReply

type NoReply = Awaitable<undefined | void>

/** A handler for one or more events. Only handlers of `gesture` alone may return a reply. */
export type Handler<N extends EventName> = (
  event: EventOf<N>,
  context: HandlerContext,
) => [N] extends ['gesture'] ? Awaitable<GestureReplyValue | undefined | void> : NoReply

/** A handler for every event, including ones this version does not know. */
export type AnyHandler = (event: WebhookEvent | UnknownEvent, context: HandlerContext) => NoReply

/** Receives every failure that is not answered to the sender: thrown handlers, late failures, store errors. */
export type ErrorHandler = (
  error: RinghookError,
  event: WebhookEvent | UnknownEvent | undefined,
  context: HandlerContext | undefined,
) => Awaitable<undefined | void>
