import { getHeader, type HeaderInput } from '../signature/headers.js'
import type { ResolvedOptions } from './options.js'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** `application/json`, with parameters or a `+json` suffix; the exact string the service sends skips the regex. */
export const isJson = (type: string | undefined): boolean => type === 'application/json' || JSON_TYPE.test(type ?? '')

/** POST, the only method the service delivers with, in any case. */
export const isPost = (method: string): boolean => method === 'POST' || method.toUpperCase() === 'POST'

/** The body's length as its `Content-Length` declares it; NaN when it declares none. */
export const declaredLength = (headers: HeaderInput): number =>
  Number(getHeader(headers, 'content-length') ?? Number.NaN)

/**
 * Whether the receiver reads this request's body: a POST whose declared length fits `maxBodyBytes`,
 * in JSON when `requireJsonContentType` is on. Anything else it answers from the method and headers
 * alone (405, 413, 415) without reading a byte. The pipeline checks the same rules, so an adapter
 * that reads the body before calling `handle()` (the Fastify plugin does, in Fastify's content-type
 * parser) reads exactly the bodies the receiver would.
 *
 * @example
 * import { readsBody } from '@ringhook/core/adapter'
 *
 * const readAhead = readsBody(receiver.options, method, headers) // false for a GET, or a body declared too large
 */
export function readsBody(
  options: Pick<ResolvedOptions, 'maxBodyBytes' | 'requireJsonContentType'>,
  method: string,
  headers: HeaderInput,
): boolean {
  if (!isPost(method) || declaredLength(headers) > options.maxBodyBytes) return false
  return !options.requireJsonContentType || isJson(getHeader(headers, 'content-type'))
}
