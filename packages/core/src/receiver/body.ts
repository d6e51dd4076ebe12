import type { Awaitable } from '../awaitable.js'
import { toBytes } from '../crypto/bytes.js'
import { bodyDeadlines } from './deadlines.js'

/** A body as adapters hand it over: already buffered, a stream core reads itself, or a reader of the adapter's own. */
export type BodyInput =
  | Uint8Array
  | string
  | AsyncIterable<Uint8Array>
  | ReadableStream<Uint8Array>
  | FetchBody
  | BodyReader
  | null
  | undefined

/**
 * A body the adapter reads in its runtime's fastest way (`@ringhook/node` reads a Node stream
 * through its events). The core calls `readBody` once, with the receiver's limits: stop past
 * `limit` bytes (`payload_too_large`) or once `timeoutMs` has passed (`body_timeout`; one shared
 * timer for every body is cheaper than a timer each); a stream that broke mid-body is
 * `body_incomplete`. It must not throw.
 */
export interface BodyReader {
  /** Reads the whole body within `limit` bytes and `timeoutMs`, or says why it could not. */
  readBody(limit: number, timeoutMs: number): Awaitable<BodyResult>
}

const isBodyReader = (body: object): body is BodyReader => typeof (body as BodyReader).readBody === 'function'

/** A Fetch `Request` (or anything with its body methods): read whole when its declared length fits. */
export interface FetchBody {
  /** Its headers: `content-length` says whether the body may be read whole. */
  readonly headers: Headers
  /** The body as a stream, read chunk by chunk with the limits when its length is unknown or too large. */
  readonly body: ReadableStream<Uint8Array> | null
  /** The body at once, used when the declared length fits. */
  arrayBuffer(): Promise<ArrayBuffer>
}

const isFetchBody = (body: object): body is FetchBody =>
  typeof (body as FetchBody).arrayBuffer === 'function' && typeof (body as FetchBody).headers?.get === 'function'

/** A body read whole, or the refusal it earned. */
export type BodyResult =
  | {
      /** Read whole. */
      ok: true
      /** The body, exactly as received. */
      bytes: Uint8Array
    }
  | {
      /** Not read: too large, too slow, or broken off. */
      ok: false
      /** The refusal, as in {@link "@ringhook/core/adapter"!ERRORS}. */
      code: 'payload_too_large' | 'body_timeout' | 'body_incomplete'
    }

const EMPTY = new Uint8Array(0)

/**
 * Buffers a body, stopping as soon as it passes `limit` bytes (so an endless upload costs
 * no memory) or when the whole body has not arrived within `timeoutMs` (a trickling client:
 * a limit per chunk would let one byte every few seconds hold the request for hours). A stream
 * that fails mid-body (the client disconnected) is `body_incomplete`, not an exception.
 * Answers at once for a body that is already buffered.
 */
export function readBody(body: BodyInput, limit: number, timeoutMs: number): Awaitable<BodyResult> {
  if (body == null) return { ok: true, bytes: EMPTY }
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = toBytes(body)
    return bytes.length > limit ? { ok: false, code: 'payload_too_large' } : { ok: true, bytes }
  }
  if (isFetchBody(body)) {
    const declared = Number(body.headers.get('content-length') ?? Number.NaN)
    // The runtime's own arrayBuffer() is its fast path (no web stream is built on Node servers);
    // a length the HTTP layer enforces bounds it. Without one, the stream is read with the limit.
    if (Number.isInteger(declared) && declared <= limit) return readWhole(body, limit, timeoutMs)
    const stream = body.body
    if (!stream) return { ok: true, bytes: EMPTY }
    // A reader holds it: unreadable, which the receiver then reports as body_already_parsed.
    if (stream.locked) return { ok: false, code: 'body_incomplete' }
    return readChunks(sourceOf(stream), limit, timeoutMs)
  }
  if (isBodyReader(body)) return body.readBody(limit, timeoutMs)
  return readChunks(sourceOf(body), limit, timeoutMs)
}

function readWhole(body: FetchBody, limit: number, timeoutMs: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const deadline = bodyDeadlines.watch(timeoutMs, () => resolve({ ok: false, code: 'body_timeout' }))
    body.arrayBuffer().then(
      (read) => {
        bodyDeadlines.clear(deadline)
        resolve(
          read.byteLength > limit
            ? { ok: false, code: 'payload_too_large' }
            : { ok: true, bytes: new Uint8Array(read) },
        )
      },
      () => {
        bodyDeadlines.clear(deadline)
        resolve({ ok: false, code: 'body_incomplete' })
      },
    )
  })
}

interface ChunkSource {
  next(): Promise<IteratorResult<Uint8Array>>
  /** Stops the upload early. */
  cancel(): void
}

function sourceOf(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): ChunkSource {
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader()
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      cancel: () => void reader.cancel().catch(() => {}),
    }
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  return { next: () => iterator.next(), cancel: () => {} }
}

async function readChunks(source: ChunkSource, limit: number, timeoutMs: number): Promise<BodyResult> {
  const chunks: Uint8Array[] = []
  let size = 0
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const step = await nextWithin(source, deadline - Date.now()).catch(() => 'aborted' as const)
    if (step === 'aborted') return { ok: false, code: 'body_incomplete' }
    if (step === 'timeout') return stop(source, 'body_timeout')
    if (step.done) break
    const chunk = toBytes(step.value)
    size += chunk.length
    if (size > limit) return stop(source, 'payload_too_large')
    chunks.push(chunk)
  }
  return { ok: true, bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size) }
}

function nextWithin(source: ChunkSource, timeoutMs: number): Promise<IteratorResult<Uint8Array> | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, 'timeout')
  })
  return Promise.race([source.next(), timeout]).finally(() => clearTimeout(timer))
}

function stop(source: ChunkSource, code: 'payload_too_large' | 'body_timeout'): BodyResult {
  source.cancel()
  return { ok: false, code }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}
