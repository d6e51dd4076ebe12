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
 * 0.4× the req/s. The receiver finds a locked body once reading it fails (stages/receive.ts).
 */
export function fetchBodyGone(request: { readonly bodyUsed: boolean }): boolean {
  return request.bodyUsed
}
