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

/** What the method and headers alone can refuse, without reading a byte of the body. */
export type HeadRefusal = 'method_not_allowed' | 'payload_too_large' | 'unsupported_media_type'

type HeadOptions = Pick<ResolvedOptions, 'maxBodyBytes' | 'requireJsonContentType'>

/**
 * The head rules, in order: POST, a declared length within `maxBodyBytes`, and JSON when
 * `requireJsonContentType` is on. The receive stage and {@link readsBody} both ask this.
 */
export function headRefusal(options: HeadOptions, method: string, headers: HeaderInput): HeadRefusal | undefined {
  if (!isPost(method)) return 'method_not_allowed'
  if (declaredLength(headers) > options.maxBodyBytes) return 'payload_too_large'
  if (options.requireJsonContentType && !isJson(getHeader(headers, 'content-type'))) return 'unsupported_media_type'
  return undefined
}

/**
 * Whether the receiver reads this request's body: a POST whose declared length fits `maxBodyBytes`,
 * in JSON when `requireJsonContentType` is on. Anything else it answers from the method and headers
 * alone (405, 413, 415) without reading a byte. The receive stage applies the same rules
 * (`headRefusal`), so an adapter that reads the body before calling `handle()` (the Fastify
 * plugin does, in Fastify's content-type parser) reads exactly the bodies the receiver would.
 *
 * @example
 * import { readsBody } from '@ringhook/core/internal'
 *
 * const readAhead = readsBody(receiver.options, method, headers) // false for a GET, or a body declared too large
 */
export function readsBody(options: HeadOptions, method: string, headers: HeaderInput): boolean {
  return headRefusal(options, method, headers) === undefined
}
