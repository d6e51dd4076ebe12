import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Receiver } from '@ringhook/core'
import { toWebhookRequest, writeResponse } from '@ringhook/node'

/** The request as ringhook reads it; Express's `Request` fits (and Express 4's). */
export type ExpressRequest = IncomingMessage & {
  /** What a body parser left: bytes from `express.raw()` are used as the body; anything else is not. */
  body?: unknown
  /** The raw bytes a parser's `verify` hook kept, used as the body. */
  rawBody?: unknown
}

/** Express's `next`, called with an error if writing the response fails. */
export type NextFunction = (error?: unknown) => void

/** An Express request handler, usable with `app.post()` and `app.use()`. */
export type RinghookHandler = (request: ExpressRequest, response: ServerResponse, next: NextFunction) => void

/**
 * Mounts a receiver on Express 4 or 5. The body is read from the request stream with the
 * receiver's limits; raw bytes kept by an earlier parser (`express.raw()`, or a `verify` hook
 * storing `req.rawBody`) are used instead. A JSON parser that consumed the body without keeping
 * them gets a 500 `body_already_parsed` and a log line with the fix, never a misleading 401.
 *
 * @example
 * import express from 'express'
 * const app = express()
 * app.post('/webhooks', ringhook(receiver))
 * app.use(express.json()) // after the webhook route
 */
export function ringhook(receiver: Receiver): RinghookHandler {
  return function ringhookExpress(request, response, next) {
    receiver
      .handle(toWebhookRequest(request))
      .then((result) => writeResponse(response, result))
      .catch(next)
  }
}
