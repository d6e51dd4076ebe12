import { WEBHOOK_DELIVERY } from '@ringhook/core/api'

// What the zod schemas cannot say about a webhook delivery, written once: how it is signed and how the
// service retries it (spec sections 5 and 8). The numbers come from the core, which the receiver and
// the simulator use too; what each event means is in core's list of events (`EVENT_NOTES`).

/** The service's delivery rules in seconds: the answer it waits for and the retries that follow. */
export const DELIVERY = {
  ackTimeoutSeconds: WEBHOOK_DELIVERY.ackTimeoutMs / 1000,
  retryDelaysSeconds: WEBHOOK_DELIVERY.retryDelaysMs.map((ms) => ms / 1000),
}

/** How a delivery is signed, in words, for every webhook's description. */
export function signingRules(toleranceSeconds: number): string {
  const [first, second, third] = DELIVERY.retryDelaysSeconds
  return [
    'Signed with the app’s webhook secret: `X-SERVICE-Signature` is `sha256=` followed by the lowercase hex',
    'HMAC-SHA256, keyed with the secret, of the timestamp header’s value, a period, and the body exactly as sent',
    `(its bytes, never re-serialised JSON). Refuse a request whose timestamp differs from your clock by more than`,
    `${toleranceSeconds} seconds, or whose signature does not match (compare in constant time). The secret is`,
    'regenerated when the webhook URL changes: accept the old and the new one during a rotation.',
    '',
    `Answer 2xx within ${DELIVERY.ackTimeoutSeconds} seconds. Anything else, or no answer in time, and the service`,
    `retries up to ${DELIVERY.retryDelaysSeconds.length} times, after ${first} s, ${second} s and ${third} s, with the same`,
    'payload, a new timestamp and a new signature: deduplicate (on `data.event_id` where there is one).',
  ].join('\n')
}
