import type { BodyInput } from './body.js'

/**
 * The one text for a body that something read before ringhook ran, whatever the host; `fix` says
 * what to change in that host. Adapters put it in `WebhookRequest.bodyAlreadyParsed`, which the
 * receiver answers `body_already_parsed` (500) and logs.
 */
export function bodyConsumed(fix: string): string {
  return `The webhook body was read before ringhook ran, and no raw copy of it was kept, so its signature cannot be checked. ${fix}`
}

/** A Fetch body that can no longer be read: consumed (`request.json()` ran) or locked by a reader. */
export function fetchBodyGone(request: { readonly bodyUsed: boolean; readonly body: ReadableStream | null }): boolean {
  return request.bodyUsed || request.body?.locked === true
}

/**
 * A body handed to the core that can no longer be read: a Fetch `Request` consumed or locked, or a
 * stream a reader holds. Any other body (bytes, a string, an adapter's own reader) is readable.
 */
export function bodyGone(body: BodyInput): boolean {
  if (body === null || typeof body !== 'object') return false
  if ('bodyUsed' in body) return fetchBodyGone(body as Parameters<typeof fetchBodyGone>[0])
  return 'locked' in body && body.locked === true
}
