import type { IncomingMessage } from 'node:http'
import { invalid, SimulatorError } from '../errors.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js'

/** The largest body a request may have, unless its route allows more. */
export const BODY_LIMIT = 64 * 1024

/**
 * Reads a JSON body of at most `limit` bytes (default 64 KiB) nesting at most {@link MAX_JSON_DEPTH}
 * levels; empty is `undefined`.
 */
export async function readJson(request: IncomingMessage, limit = BODY_LIMIT): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limit) throw new SimulatorError(413, 'payload_too_large', `The body is larger than ${limit / 1024} KiB.`)
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text.trim()) return undefined
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw invalid(`The body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`)
  try {
    return JSON.parse(text)
  } catch {
    throw invalid('The body is not valid JSON.')
  }
}
