import type { IncomingMessage } from 'node:http'
import { invalid, SimulatorError } from '../errors.js'

const LIMIT = 64 * 1024

/** Reads a JSON body of at most 64 KiB; empty is `undefined`. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > LIMIT) throw new SimulatorError(413, 'payload_too_large', 'The body is larger than 64 KiB.')
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text.trim()) return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw invalid('The body is not valid JSON.')
  }
}
