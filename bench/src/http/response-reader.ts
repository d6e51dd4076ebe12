/**
 * Finds where one HTTP/1.1 response ends in the bytes a load-generator connection received, and its
 * status: just enough of the protocol for the bench's servers (a Content-Length body, a chunked
 * body, or none), so the load generator spends its time sending rather than parsing.
 */

/** A complete response at the start of the bytes: its status, its length, whether the server closes. */
export interface ResponseEnd {
  status: number
  /** Bytes the response took, head and body. */
  length: number
  close: boolean
}

const CRLF2 = Buffer.from('\r\n\r\n')

/** The first response in `bytes`, or undefined while it is incomplete. Throws on bytes that are not HTTP. */
export function responseEnd(bytes: Buffer): ResponseEnd | undefined {
  const headEnd = bytes.indexOf(CRLF2)
  if (headEnd < 0) return undefined
  const head = bytes.toString('latin1', 0, headEnd).toLowerCase()
  if (!head.startsWith('http/1.')) throw new Error(`not an HTTP response: ${JSON.stringify(head.slice(0, 40))}`)
  const status = Number(head.slice(9, 12))
  const close = head.includes('\r\nconnection: close')
  const bodyStart = headEnd + 4
  const length = headerValue(head, 'content-length')
  if (length !== undefined) {
    const end = bodyStart + Number(length)
    return bytes.length >= end ? { status, length: end, close } : undefined
  }
  if (headerValue(head, 'transfer-encoding')?.includes('chunked')) {
    const end = chunkedEnd(bytes, bodyStart)
    return end === undefined ? undefined : { status, length: end, close }
  }
  // Neither: a body-less answer (1xx, 204, 304), or one that runs to the close.
  return { status, length: bodyStart, close }
}

function headerValue(head: string, name: string): string | undefined {
  const at = head.indexOf(`\r\n${name}:`)
  if (at < 0) return undefined
  const start = at + name.length + 3
  const end = head.indexOf('\r\n', start)
  return head.slice(start, end < 0 ? head.length : end).trim()
}

/** Where a chunked body that starts at `offset` ends (after its last CRLF), or undefined while incomplete. */
function chunkedEnd(bytes: Buffer, offset: number): number | undefined {
  let at = offset
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at, 'latin1')
    if (lineEnd < 0) return undefined
    const size = Number.parseInt(bytes.toString('latin1', at, lineEnd), 16)
    if (Number.isNaN(size)) throw new Error('malformed chunk size')
    if (size === 0) {
      // No trailers from the bench's servers: the last chunk is followed by one CRLF.
      const end = lineEnd + 4
      return bytes.length >= end ? end : undefined
    }
    at = lineEnd + 2 + size + 2
    if (bytes.length < at) return undefined
  }
}
