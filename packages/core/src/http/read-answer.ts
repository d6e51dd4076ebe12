/** An answer's body read up to a cap: its first bytes as text, and whether more was cut off. */
export interface CappedAnswer {
  /** The body's first bytes (at most the cap), decoded as UTF-8. */
  text: string
  /** The bytes kept: the whole body's size, or the cap when it was cut. */
  bytes: number
  /** True when the body was longer than the cap: the rest was neither read nor kept. */
  cut: boolean
}

const decoder = new TextDecoder()

/**
 * Reads a fetch answer's body up to `maxBytes` and cancels the rest, so a receiver (or whoever
 * answers in its place) cannot make a tool hold a huge or endless body in memory; what the tool
 * needs of an answer (its status, a short error body, a vibe reply) is always near its start.
 *
 * @example
 * const response = await fetch('http://127.0.0.1:3000/webhooks', { method: 'POST', redirect: 'manual' })
 * const answer = await readAnswer(response, 64 * 1024)
 * if (answer.cut) console.log(`answer cut at ${answer.bytes} bytes`)
 */
export async function readAnswer(response: Response, maxBytes: number): Promise<CappedAnswer> {
  if (!response.body) return { text: '', bytes: 0, cut: false }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const room = maxBytes - size
    if (value.length > room) {
      chunks.push(value.subarray(0, room))
      size = maxBytes
      // Cancelling closes the connection: the rest is never downloaded.
      await reader.cancel().catch(() => {})
      return { text: decode(chunks, size), bytes: size, cut: true }
    }
    chunks.push(value)
    size += value.length
  }
  return { text: decode(chunks, size), bytes: size, cut: false }
}

function decode(chunks: Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0])
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.length
  }
  return decoder.decode(all)
}
