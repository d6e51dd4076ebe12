import {
  type BodyReader,
  type BodyResult,
  bodyConsumed,
  type HeaderInput,
  type WebhookRequest,
} from '@ringhook/core/adapter'
import { bodyDeadlines } from '@ringhook/core/internal'

/** What ringhook reads from a Node-style request (node:http, Connect, Express). Duck-typed: no Node types. */
export interface NodeStyleRequest extends NodeReadable {
  /** The HTTP method. */
  method?: string | undefined
  /** The headers, as Node keeps them. */
  headers: HeaderInput
  /** True once the stream was read to its end, by a body parser for instance. */
  readableEnded?: boolean
  /** What a body parser left: a Buffer from `express.raw()`, an object from `express.json()`. */
  body?: unknown
  /** The raw bytes a parser's `verify` hook kept. */
  rawBody?: unknown
}

const BODY_PARSED_FIX = bodyConsumed(
  "Mount ringhook before the parser (in Express: app.post('/webhooks', ringhook(receiver)) above " +
    'app.use(express.json())), or have the parser keep the raw bytes: ' +
    'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).',
)

/**
 * The core's request for a Node-style request. Raw bytes an earlier parser kept (`req.rawBody`,
 * or a Buffer from `express.raw()`) are used as they are; otherwise the stream is read (through
 * its events, within the receiver's limits), unless a parser already consumed it, which the
 * receiver answers as `body_already_parsed`.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer((req, res) => {
 *   receiver.handle(toWebhookRequest(req)).then(({ status, headers, body }) => res.writeHead(status, headers).end(body))
 * })
 */
export function toWebhookRequest(request: NodeStyleRequest): WebhookRequest {
  // The usual case first: a Node stream nobody has read, so no parser can have left anything.
  // (Looking up `body` and `rawBody`, absent from IncomingMessage, costs more than the rest.)
  if (request.readableEnded === false)
    return { method: request.method ?? 'GET', headers: request.headers, rawBody: new StreamBody(request) }
  const base = { method: request.method ?? 'GET', headers: request.headers }
  const kept = keptRawBody(request)
  if (kept !== undefined) return { ...base, rawBody: kept }
  if (request.readableEnded) return { ...base, rawBody: null, bodyAlreadyParsed: BODY_PARSED_FIX }
  return { ...base, rawBody: new StreamBody(request) }
}

function keptRawBody({ rawBody, body }: NodeStyleRequest): Uint8Array | string | undefined {
  if (rawBody instanceof Uint8Array || typeof rawBody === 'string') return rawBody
  // Only bytes are trusted as raw: a string or object in `body` is already a parser's output.
  return body instanceof Uint8Array ? body : undefined
}

/** A Node readable stream (IncomingMessage), duck-typed. */
export interface NodeReadable {
  /** Listens for `data`, `end`, `error` and `close`. */
  on(event: string, listener: (chunk: Uint8Array) => void): unknown
  /** Stops the flow of a body that is refused part-way. */
  pause(): unknown
  /** True once the stream is torn down: a client that hung up before the body was read. */
  readonly destroyed?: boolean
}

/**
 * Reads a Node stream through its 'data' events, its deadline on the core's shared timer: Node's
 * async iterator costs a promise and a listener set per chunk, and a timer per body costs more still.
 *
 * Its listeners stay on the stream once the body is read, and ignore what comes after: removing
 * them cost more than the rest of the read (four `removeListener` calls, each deleting a key of the
 * stream's event map, which V8 then keeps as a slow dictionary). Found with callgrind on a node:http
 * server (bench/README.md, Profiling): ~20k instructions a request, ~6% of the whole request.
 */
export class StreamBody implements BodyReader {
  readonly #stream: NodeReadable

  constructor(stream: NodeReadable) {
    this.#stream = stream
  }

  /** The stream as the receiver's body, read once (a second call would wait for events already gone). */
  readBody(limit: number, timeoutMs: number): Promise<BodyResult> {
    return new Promise((resolve) => this.read(limit, timeoutMs, resolve))
  }

  /**
   * The same read, told through a callback: for a host that reads bodies with callbacks of its own
   * (Fastify's content-type parsers), so the receiver is then handed a {@link ReadBody} and answers
   * without waiting on a promise for the body.
   */
  read(limit: number, timeoutMs: number, done: (result: BodyResult) => void): void {
    const stream = this.#stream
    // Torn down before anyone listened (a middleware that waited before ringhook, a starved
    // server): its 'close' is gone, and waiting for events would end only at the body timeout.
    if (stream.destroyed) {
      done({ ok: false, code: 'body_incomplete' })
      return
    }
    let chunks: Uint8Array[] | undefined = []
    let size = 0
    const finish = (result: BodyResult): void => {
      chunks = undefined
      bodyDeadlines.clear(deadline)
      done(result)
    }
    // Paused, not destroyed: the adapter still answers on the same socket.
    const stop = (code: 'payload_too_large' | 'body_timeout'): void => {
      if (!chunks) return
      stream.pause()
      finish({ ok: false, code })
    }
    const deadline = bodyDeadlines.watch(timeoutMs, () => stop('body_timeout'))
    stream.on('data', (data: Uint8Array | string) => {
      if (!chunks) return
      const chunk = typeof data === 'string' ? encoder.encode(data) : data // setEncoding() was called
      size += chunk.length
      if (size > limit) stop('payload_too_large')
      else chunks.push(chunk)
    })
    stream.on('end', () => {
      if (chunks) finish({ ok: true, bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size) })
    })
    // 'close' before 'end', or 'error': the client went away mid-body. After 'end', a no-op.
    const broken = (): void => {
      if (chunks) finish({ ok: false, code: 'body_incomplete' })
    }
    stream.on('error', broken)
    stream.on('close', broken)
  }
}

/**
 * A body {@link StreamBody.read} already read, with the receiver's own `maxBodyBytes` and
 * `bodyTimeoutMs`: the receiver takes its outcome (the bytes, or why there are none) as it is,
 * synchronously. Give it only what was read with the limits of the receiver it is handed to.
 */
export class ReadBody implements BodyReader {
  /** What the read gave: the bytes, or why there are none (too large, too slow, cut off). */
  readonly result: BodyResult

  constructor(result: BodyResult) {
    this.result = result
  }

  readBody(): BodyResult {
    return this.result
  }
}

const encoder = new TextEncoder()

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}
