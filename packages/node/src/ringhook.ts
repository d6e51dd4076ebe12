import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Receiver } from '@ringhook/core'
import { closesConnection, errorResponse, type WebhookResponse } from '@ringhook/core/adapter'
import { toWebhookRequest } from './node-request.js'

/** Which path the middleware answers. */
export interface RinghookOptions {
  /** The path webhooks are posted to; other paths go to `next`. Default `/webhooks`. */
  path?: string
}

/** A Connect-style `next`; called for requests to other paths. */
export type NextFunction = (error?: unknown) => void

/** A request listener that is also Connect/Express middleware. */
export type NodeMiddleware = (request: IncomingMessage, response: ServerResponse, next?: NextFunction) => void

/**
 * Mounts a receiver on `node:http`, or in any Connect-style stack.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer(ringhook(receiver, { path: '/webhooks' })).listen(3000)
 */
export function ringhook(receiver: Receiver, options: RinghookOptions = {}): NodeMiddleware {
  const path = options.path ?? '/webhooks'
  return function ringhookNodeMiddleware(request, response, next) {
    if (pathOf(request.url) !== path) {
      if (next) next()
      else writeResponse(response, errorResponse('not_found'))
      return
    }
    // The same reading as Express: raw bytes a parser kept are used, a consumed body is reported.
    void receiver.handle(toWebhookRequest(request)).then((result) => writeResponse(response, result))
  }
}

/** Writes the core's response; a client that already left is not an error worth throwing. */
export function writeResponse(response: ServerResponse, result: WebhookResponse): void {
  if (response.headersSent || response.destroyed) return
  response
    .writeHead(
      result.status,
      closesConnection(response.req) ? { ...result.headers, connection: 'close' } : result.headers,
    )
    .end(result.body)
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/'
  const query = raw.indexOf('?')
  return query < 0 ? raw : raw.slice(0, query)
}
