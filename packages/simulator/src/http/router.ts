import type { IncomingMessage, ServerResponse } from 'node:http'
import { invalid } from '../errors.js'

/** A request as route handlers see it. */
export interface RouteRequest {
  method: string
  path: string
  params: Record<string, string>
  query: URLSearchParams
  requestId: string
  /** Reads and parses the JSON body (undefined when empty), of at most `limit` bytes (default 64 KiB). */
  body(limit?: number): Promise<unknown>
  raw: { request: IncomingMessage; response: ServerResponse }
}

/** A JSON answer, or `streamed` when the handler wrote the response itself (SSE). */
export type RouteResult = { status: number; body: unknown; headers?: Record<string, string> } | { streamed: true }

export type RouteHandler<C> = (request: RouteRequest, context: C) => RouteResult | Promise<RouteResult>

interface Route<C> {
  method: string
  pattern: string
  segments: string[]
  handler: RouteHandler<C>
}

/** A route as it was declared. */
export interface DeclaredRoute {
  method: string
  pattern: string
}

export type Match<C> =
  | { kind: 'route'; handler: RouteHandler<C>; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'none' }

/** Routes of `/segment/:param` patterns; the first registered match wins. */
export class Router<C> {
  readonly #routes: Route<C>[] = []

  add(method: string, pattern: string, handler: RouteHandler<C>): this {
    this.#routes.push({ method, pattern, segments: split(pattern), handler })
    return this
  }

  /** Every route as declared, in order: what a test walks to reach each one (the token check, say). */
  declared(): DeclaredRoute[] {
    return this.#routes.map(({ method, pattern }) => ({ method, pattern }))
  }

  match(method: string, path: string): Match<C> {
    const segments = split(path).map(decode)
    const allowed: string[] = []
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments)
      if (!params) continue
      if (route.method === method) return { kind: 'route', handler: route.handler, params }
      allowed.push(route.method)
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'none' }
  }
}

const split = (path: string) => path.split('/').filter(Boolean)

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw invalid(`The path segment "${segment}" is not valid URL encoding.`)
  }
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string
    const value = actual[i] as string
    if (expected.startsWith(':')) params[expected.slice(1)] = value
    else if (expected !== value) return undefined
  }
  return params
}
