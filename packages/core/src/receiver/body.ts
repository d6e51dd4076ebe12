import { toBytes } from '../crypto/bytes.js'
import type { Awaitable } from './awaitable.js'
import { bodyDeadlines } from './deadlines.js'

/** A body as adapters hand it over: already buffered, or a stream core reads itself. */
export type BodyInput =
  | Uint8Array
  | string
  | AsyncIterable<Uint8Array>
  | ReadableStream<Uint8Array>
  | FetchBody
  | null
  | undefined

/** A Fetch `Request` (or anything with its body methods): read whole when its declared length fits. */
export interface FetchBody {
  readonly headers: Headers
  readonly body: ReadableStream<Uint8Array> | null
  arrayBuffer(): Promise<ArrayBuffer>
}

const isFetchBody = (body: object): body is FetchBody =>
  typeof (body as FetchBody).arrayBuffer === 'function' && typeof (body as FetchBody).headers?.get === 'function'

export type BodyResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; code: 'payload_too_large' | 'body_timeout' | 'body_incomplete' }

const EMPTY = new Uint8Array(0)

/**
 * Buffers a body, stopping as soon as it passes `limit` bytes (so an endless upload costs
 * no memory) or when the whole body has not arrived within `timeoutMs` (a trickling client:
 * a limit per chunk would let one byte every few seconds hold the request for hours). A stream
 * that fails mid-body (the client disconnected) is `body_incomplete`, not an exception.
 */
export async function readBody(body: BodyInput, limit: number, timeoutMs: number): Promise<BodyResult> {
  return readBodyNow(body, limit, timeoutMs)
}

/**
 * {@link readBody}, answering at once for a body that is already buffered.
 * @internal
 */
export function readBodyNow(body: BodyInput, limit: number, timeoutMs: number): Awaitable<BodyResult> {
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
    return body.body ? readChunks(sourceOf(body.body), limit, timeoutMs) : { ok: true, bytes: EMPTY }
  }
  if (isNodeReadable(body)) return readEvents(body, limit, timeoutMs)
  return readChunks(sourceOf(body), limit, timeoutMs)
}

/** A Node readable stream (IncomingMessage), duck-typed so the core needs no Node types. */
interface NodeReadable {
  on(event: string, listener: (chunk: Uint8Array) => void): unknown
  removeListener(event: string, listener: (chunk: Uint8Array) => void): unknown
  pause(): unknown
}

const isNodeReadable = (body: object): body is NodeReadable =>
  typeof (body as NodeReadable).on === 'function' &&
  typeof (body as NodeReadable).removeListener === 'function' &&
  typeof (body as NodeReadable).pause === 'function'

/**
 * Reads a Node stream through its 'data' events, its deadline on the shared timer: Node's async
 * iterator costs a promise and a listener set per chunk, and a timer per body costs more still.
 */
function readEvents(stream: NodeReadable, limit: number, timeoutMs: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = []
    let size = 0
    const finish = (result: BodyResult): void => {
      bodyDeadlines.clear(deadline)
      stream.removeListener('data', onData)
      stream.removeListener('end', onEnd)
      stream.removeListener('error', onBroken)
      stream.removeListener('close', onBroken)
      resolve(result)
    }
    // Paused, not destroyed: the adapter still answers on the same socket.
    const stop = (code: 'payload_too_large' | 'body_timeout'): void => {
      stream.pause()
      finish({ ok: false, code })
    }
    const onData = (data: Uint8Array): void => {
      const chunk = toBytes(data) // a string if someone called setEncoding()
      size += chunk.length
      if (size > limit) stop('payload_too_large')
      else chunks.push(chunk)
    }
    const onEnd = (): void =>
      finish({ ok: true, bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size) })
    // 'close' before 'end', or 'error': the client went away mid-body.
    const onBroken = (): void => finish({ ok: false, code: 'body_incomplete' })
    const deadline = bodyDeadlines.watch(timeoutMs, () => stop('body_timeout'))
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onBroken)
    stream.on('close', onBroken)
  })
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
  /** Stops the upload early. Node request streams are left paused rather than destroyed, so
   * the adapter can still write the error response on the same socket. */
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
