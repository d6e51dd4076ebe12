/**
 * Whether an answer to this Node request should close its connection: the receiver stopped reading
 * a body (too large, too slow, refused from its headers) that may still be arriving. Closing after
 * the answer is cheaper than letting Node read the rest of it, and keeps the next request on the
 * socket from being read as part of this body. Duck-typed on `IncomingMessage.complete`; a request
 * that is not a Node one (no `complete`) never closes.
 *
 * @example
 * import type { IncomingMessage, ServerResponse } from 'node:http'
 * import { closesConnection, type WebhookResponse } from '@ringhook/core/adapter'
 *
 * function write(response: ServerResponse<IncomingMessage>, result: WebhookResponse) {
 *   const close = closesConnection(response.req)
 *   response.writeHead(result.status, close ? { ...result.headers, connection: 'close' } : result.headers).end(result.body)
 * }
 */
export const closesConnection = (request: { readonly complete?: boolean } | null | undefined): boolean =>
  request?.complete === false
