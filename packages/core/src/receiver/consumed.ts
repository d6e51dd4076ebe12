import type { BodyInput } from './body.js'

/**
 * The one text for a body that something read before ringhook ran, whatever the host; `fix` says
 * what to change in that host. Adapters put it in `WebhookRequest.bodyAlreadyParsed`, which the
 * receiver answers `body_already_parsed` (500) and logs.
 */
export function bodyConsumed(fix: string): string {
  return `The webhook body was read before ringhook ran, and no raw copy of it was kept, so its signature cannot be checked. ${fix}`
}

/**
 * A Fetch body that was consumed (`request.json()` or `text()` ran): its `bodyUsed`. A body only
 * locked by a reader is not asked about here, because asking means reading `request.body`, which on
 * Node servers (@hono/node-server) builds the web stream that the runtime's `arrayBuffer()` avoids:
 * 0.4× the req/s. The receiver finds a locked body once reading it fails (`bodyLocked`).
 */
export function fetchBodyGone(request: { readonly bodyUsed: boolean }): boolean {
  return request.bodyUsed
}

/** A body handed to the core that cannot be read: a consumed Fetch `Request`, or a stream a reader holds. */
export function bodyGone(body: BodyInput): boolean {
  if (body === null || typeof body !== 'object') return false
  if ('bodyUsed' in body) return fetchBodyGone(body as { bodyUsed: boolean })
  return 'locked' in body && body.locked === true
}

/**
 * After reading failed: whether it failed because a reader holds the Fetch `Request`'s stream. A read
 * that began and broke off (the client left) leaves the body used; one refused for a lock leaves it
 * unused and locked. Asked in that order, so a broken read never asks for `request.body`.
 */
export function bodyLocked(body: BodyInput): boolean {
  if (body === null || typeof body !== 'object' || !('bodyUsed' in body)) return false
  const request = body as { readonly bodyUsed: boolean; readonly body?: ReadableStream | null }
  return !request.bodyUsed && request.body?.locked === true
}
