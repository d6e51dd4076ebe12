import type { IncomingMessage, ServerResponse } from 'node:http'
import { authenticate, countRequest } from '../api/auth.js'
import type { ApiContext } from '../api/context.js'
import { apiRouter } from '../api/routes.js'
import type { ExtraHandler } from '../config.js'
import { controlRouter } from '../control/routes.js'
import type { Engine } from '../engine.js'
import { notFound, SimulatorError } from '../errors.js'
import { readJson } from './body.js'
import { type Access, checkHost, checkOrigin, checkToken } from './local-only.js'
import type { Match, RouteRequest, RouteResult } from './router.js'

const CONTROL_PREFIX = '/_sim'

/**
 * The simulator's request listener: `/_sim/...` is the control API, everything else the service API.
 * Every request must name this machine in its Host header; the control API answers no other origin
 * (and sends no CORS headers), and its state-changing calls need the run's token.
 */
export function createListener(
  engine: Engine,
  access: Access,
  extra?: ExtraHandler,
): (request: IncomingMessage, response: ServerResponse) => void {
  const api = apiRouter()
  const control = controlRouter()

  return (request, response) => {
    const requestId = engine.ctx.ids.requestId()
    response.setHeader('x-request-id', requestId)
    const url = new URL(request.url ?? '/', 'http://simulator.invalid')
    const routeRequest = (params: Record<string, string>, path: string): RouteRequest => ({
      method: request.method ?? 'GET',
      path,
      params,
      query: url.searchParams,
      requestId,
      body: (limit) => readJson(request, limit),
      raw: { request, response },
    })

    try {
      checkHost(request.headers, access)
    } catch (error) {
      return void run(response, () => Promise.reject(error))
    }

    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      const path = url.pathname.slice(CONTROL_PREFIX.length)
      void run(response, async () => {
        checkOrigin(request.headers)
        if (request.method !== 'GET' && request.method !== 'HEAD') checkToken(request.headers, access)
        return dispatch(control.match(request.method ?? 'GET', path), (params) => [routeRequest(params, path), engine])
      })
      return
    }

    if (extra?.(request, response, { token: access.token })) return
    if (url.pathname === '/') return void send(response, { status: 200, body: index(engine) })

    // The reference lists paths under /v1 and its samples omit it: both are served.
    const path = url.pathname === '/v1' || url.pathname.startsWith('/v1/') ? url.pathname.slice(3) : url.pathname
    const started = performance.now()
    let keyId: string | null = null
    void run(response, () =>
      dispatch(api.match(request.method ?? 'GET', path), (params) => {
        const key = authenticate(engine.ctx, request.headers)
        keyId = key.id
        countRequest(engine.ctx, key)
        const context: ApiContext = { sim: engine.ctx, notifications: engine.notifications, key }
        return [routeRequest(params, path), context]
      }),
    ).then((result) => {
      engine.ctx.log.append({
        type: 'request',
        request_id: requestId,
        method: request.method ?? 'GET',
        path: url.pathname,
        status: 'streamed' in result ? 200 : result.status,
        error_code: 'streamed' in result ? null : errorCode(result.body),
        key_id: keyId,
        latency_ms: Math.round((performance.now() - started) * 10) / 10,
      })
    })
  }
}

/** Runs the matched handler with the arguments `prepare` builds (authentication happens there). */
async function dispatch<C>(
  match: Match<C>,
  prepare: (params: Record<string, string>) => [RouteRequest, C],
): Promise<RouteResult> {
  if (match.kind === 'none') throw notFound('No such endpoint.')
  if (match.kind === 'method_not_allowed') {
    throw new SimulatorError(405, 'method_not_allowed', `Use ${match.allowed.join(' or ')}.`, {
      allow: match.allowed.join(', '),
    })
  }
  const [routeRequest, context] = prepare(match.params)
  return match.handler(routeRequest, context)
}

async function run(response: ServerResponse, work: () => Promise<RouteResult>): Promise<RouteResult> {
  let result: RouteResult
  try {
    result = await work()
  } catch (error) {
    const known =
      error instanceof SimulatorError
        ? error
        : new SimulatorError(500, 'internal_error', `The simulator failed: ${(error as Error)?.message ?? error}`)
    result = { status: known.status, body: known.toBody(), headers: known.headers }
  }
  send(response, result)
  return result
}

function send(response: ServerResponse, result: RouteResult): void {
  if ('streamed' in result || response.headersSent || response.destroyed) return
  let answer = result
  let text: string
  try {
    text = JSON.stringify(result.body)
  } catch (error) {
    // Whatever an answer holds, writing it must not throw out of the listener and stop the process.
    const failed = new SimulatorError(500, 'internal_error', `The answer could not be written: ${String(error)}`)
    answer = { status: failed.status, body: failed.toBody() }
    text = JSON.stringify(answer.body)
  }
  response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers }).end(text)
}

function errorCode(body: unknown): string | null {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code
  return typeof code === 'string' ? code : null
}

function index(engine: Engine) {
  return {
    name: 'ringhook simulator',
    api: engine.ctx.settings.api_url,
    control: `${engine.ctx.settings.base_url}${CONTROL_PREFIX}/state`,
    events: `${engine.ctx.settings.base_url}${CONTROL_PREFIX}/events`,
  }
}
