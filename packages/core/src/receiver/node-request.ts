import type { HeaderInput } from '../signature/headers.js'
import type { WebhookRequest } from './handle.js'

/** What the core reads from a Node-style request (node:http, Connect, Express). Duck-typed: no Node types. */
export interface NodeStyleRequest extends AsyncIterable<Uint8Array> {
  method?: string | undefined
  headers: HeaderInput
  /** True once the stream was read to its end, by a body parser for instance. */
  readableEnded?: boolean
  /** What a body parser left: a Buffer from `express.raw()`, an object from `express.json()`. */
  body?: unknown
  /** The raw bytes a parser's `verify` hook kept. */
  rawBody?: unknown
}

const BODY_PARSED_FIX =
  'A body parser ran before ringhook and kept no raw copy of the body, so the webhook signature cannot be checked. ' +
  "Mount ringhook before the parser (in Express: app.post('/webhooks', ringhook(receiver)) above app.use(express.json())), " +
  'or have the parser keep the raw bytes: express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).'

/**
 * The core's request for a Node-style request. Raw bytes an earlier parser kept (`req.rawBody`,
 * or a Buffer from `express.raw()`) are used as they are; otherwise the stream is read by the
 * receiver, unless a parser already consumed it, which the receiver answers as `body_already_parsed`.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer((req, res) => {
 *   receiver.handle(fromNodeRequest(req)).then(({ status, headers, body }) => res.writeHead(status, headers).end(body))
 * })
 */
export function fromNodeRequest(request: NodeStyleRequest): WebhookRequest {
  // The usual case first: a Node stream nobody has read, so no parser can have left anything.
  // (Looking up `body` and `rawBody`, absent from IncomingMessage, costs more than the rest.)
  if (request.readableEnded === false)
    return { method: request.method ?? 'GET', headers: request.headers, rawBody: request }
  const base = { method: request.method ?? 'GET', headers: request.headers }
  const kept = keptRawBody(request)
  if (kept !== undefined) return { ...base, rawBody: kept }
  if (request.readableEnded) return { ...base, rawBody: null, bodyAlreadyParsed: BODY_PARSED_FIX }
  return { ...base, rawBody: request }
}

function keptRawBody({ rawBody, body }: NodeStyleRequest): Uint8Array | string | undefined {
  if (rawBody instanceof Uint8Array || typeof rawBody === 'string') return rawBody
  // Only bytes are trusted as raw: a string or object in `body` is already a parser's output.
  return body instanceof Uint8Array ? body : undefined
}
