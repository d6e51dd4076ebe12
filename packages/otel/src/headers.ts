import type { TextMapGetter } from '@opentelemetry/api'
import { getHeader, type HeaderInput } from '@ringhook/core/adapter'

/** Reads trace context (`traceparent`...) from a delivery's headers, in either form adapters pass them. */
export const headerGetter: TextMapGetter<HeaderInput> = {
  get: (headers, key) => getHeader(headers, key),
  keys: (headers) =>
    typeof (headers as Headers).keys === 'function' ? [...(headers as Headers).keys()] : Object.keys(headers),
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])

/** `http.request.method` as the conventions want it: a known method, or `_OTHER` (a stranger picks it). */
export function httpMethod(method: string): string {
  if (method === 'POST') return method
  const upper = method.toUpperCase()
  return METHODS.has(upper) ? upper : '_OTHER'
}
