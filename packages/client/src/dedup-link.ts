import type { Logger, WebhookEvent } from '@ringhook/core'
import { ACK_BODY } from '@ringhook/core/api'
import { type DedupKeyFn, type DedupStore, dedupKeyFor } from '@ringhook/core/store'

/** Links the client to a webhook receiver's dedup store; see "Exactly once across channels" in the README. */
export interface DedupLinkOptions {
  /** The very store the receiver uses (`createReceiver({ store })`), e.g. one Redis store for both. */
  store: DedupStore
  /** How long a response got by poll or await is remembered as handled. Default 15 min, as the receiver. */
  completedTtlMs?: number
  /** The receiver's `dedup.key`, if it uses its own. Default: core's `defaultDedupKey`. */
  key?: DedupKeyFn
}

/** Added to a responded result when the link is on. */
export interface LinkedResult {
  /**
   * `true` when this response was handed to the app before: the webhook handler ran (or is
   * running) for it, or an earlier poll or await returned it. Skip processing it again.
   * `false` when this call is the first; the webhook that follows will not run the handler.
   */
  alreadyHandled?: boolean
}

/** What the receiver replays to the service's later delivery: the same as its own acknowledgement. */
const ACK = Object.freeze({ status: 200, body: ACK_BODY })
/** The claim is completed right away; this only bounds a crash between claim and complete. */
const CLAIM_TTL_MS = 30_000
/** Event ids whose app is remembered from triggers, for `events.response(eventId)` alone. */
const MAX_REMEMBERED = 10_000

export interface ResponseLink {
  /** Notes which app an event belongs to (from a trigger). */
  remember(eventId: string, appId: string, userAppId: string): void
  /** The app an event belongs to, if a trigger of this client created it. */
  appOf(eventId: string): string | undefined
  /** Marks a response handled in the store; tells whether it was handled before. */
  markHandled(target: { appId: string; eventId: string; response: string; respondedAt: string }): Promise<boolean>
}

export function createResponseLink(options: DedupLinkOptions, logger: Logger): ResponseLink {
  const ttl = options.completedTtlMs ?? 15 * 60_000
  const known = new Map<string, { appId: string; userAppId: string }>()
  return {
    remember(eventId, appId, userAppId) {
      known.delete(eventId)
      known.set(eventId, { appId, userAppId })
      if (known.size > MAX_REMEMBERED) known.delete(known.keys().next().value as string)
    },
    appOf: (eventId) => known.get(eventId)?.appId,
    async markHandled({ appId, eventId, response, respondedAt }) {
      // The event the service will deliver, as far as the client knows it; the default key needs only app and event id.
      const event = {
        event: 'notification.responded',
        app_id: appId,
        user_app_id: known.get(eventId)?.userAppId ?? '',
        timestamp: respondedAt,
        data: { event_id: eventId, response },
      } as WebhookEvent
      // The receiver's own derivation, so both name this delivery alike.
      const key = dedupKeyFor(event, options.key)
      try {
        const claim = await options.store.claim(key, CLAIM_TTL_MS)
        if (claim.state === 'full') {
          // Not marked: the webhook's own claim decides, and a full store answers it 503 until there is room.
          logger.warn({ event_id: eventId }, 'The dedup store is full: could not mark a response handled')
          return false
        }
        if (claim.state !== 'claimed') return true
        await options.store.complete(key, claim.token, ACK, ttl)
        return false
      } catch (error) {
        // The response itself was received; a store outage must not turn it into a failure.
        logger.warn({ event_id: eventId, err: String(error) }, 'Could not mark a response handled in the dedup store')
        return false
      }
    },
  }
}
