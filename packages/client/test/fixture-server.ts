import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serviceTriggerRequestSchema, TRIGGER_LIMITS, type UserState } from '@ringhook/core/api'

// A small stand-in for the service, faithful to the spec's sections 4, 5, 7 and 8, for the
// client's tests until the simulator (now @ringhook/simulator) existed. Errors use the simulator's
// shape, `{error: {code, message}}`, and every answer carries `x-request-id`.

export interface FixtureUser {
  user_app_id: string
  state: UserState
  installed_at: string
  permissions: { vibes: boolean; gestures: boolean }
  /** The user account a key may be linked to, for `@me`. */
  account?: string
  /** false: the user-side barrier applies and triggers return `not_enabled`. */
  notifications?: boolean
}

export interface FixtureConfig {
  /** API keys, each optionally linked to a user account. */
  keys: Record<string, { account?: string }>
  /** Apps, each owned by the listed keys (a developer may hold several keys). */
  apps: { app_id: string; owners: string[]; users: FixtureUser[] }[]
  /** Path prefix the server serves under. Default `/v1`. */
  prefix?: string
  /** Multiplies await-mode timeouts so tests need not wait 5 s. Default 1. */
  awaitScale?: number
}

/** Something to do instead of serving the next request. */
export type Fault =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { drop: true }
  | { delayMs: number }

export interface RecordedRequest {
  method: string
  path: string
  authorization: string | undefined
  body: unknown
}

interface EventRecord {
  status: 'pending' | 'responded'
  response: string | null
  responded_at: string | null
}

export interface Fixture {
  url: string
  requests: RecordedRequest[]
  /** Emits `await-start` (eventId) and `await-end` (eventId, 'responded' | 'timeout' | 'closed'). */
  signals: EventEmitter
  /** Queues faults for the next requests, one each. */
  inject(...faults: Fault[]): void
  /** The user answers a notification. */
  respond(eventId: string, value: string): void
  close(): Promise<void>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export async function startFixture(config: FixtureConfig): Promise<Fixture> {
  const prefix = config.prefix ?? '/v1'
  const scale = config.awaitScale ?? 1
  const requests: RecordedRequest[] = []
  const faults: Fault[] = []
  const events = new Map<string, EventRecord>()
  const held = new Map<string, (value: string) => void>()
  const signals = new EventEmitter()
  let counter = 0

  const appOf = (key: string, appId: string) => {
    const app = config.apps.find((a) => a.app_id === appId && a.owners.includes(key))
    if (!app) throw new HttpError(404, 'app_not_found', `App ${appId} not found`)
    return app
  }
  const accountOf = (key: string) => {
    const account = config.keys[key]?.account
    if (!account) throw new HttpError(400, 'me_unresolvable', '@me needs a key linked to a user account')
    return account
  }
  const install = (u: FixtureUser) => ({
    user_app_id: u.user_app_id,
    is_active: u.state !== 'inactive',
    installed_at: u.installed_at,
  })

  async function route(req: IncomingMessage, key: string, path: string, query: URLSearchParams, body: unknown) {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent)
    const [top, id, sub, leaf] = parts
    if (req.method === 'GET' && top === 'apps' && id && sub === 'installs' && parts.length === 3) {
      return { installs: appOf(key, id).users.map(install) }
    }
    if (req.method === 'GET' && top === 'apps' && id && sub === 'installs' && leaf === '@me') {
      const app = appOf(key, id)
      const account = accountOf(key)
      const user = app.users.find((u) => u.account === account)
      if (!user) throw new HttpError(404, 'not_installed', 'The app is not installed on your ring')
      return { ...install(user), app_id: app.app_id }
    }
    if (req.method === 'GET' && top === 'apps' && id && sub === 'users' && parts.length === 3) {
      const state = query.get('state') ?? 'all'
      if (!['active', 'passive', 'inactive', 'all'].includes(state)) throw new HttpError(400, 'invalid_state', state)
      const users = appOf(key, id).users.filter((u) => state === 'all' || u.state === state)
      return { users: users.map(({ user_app_id, state, installed_at }) => ({ user_app_id, state, installed_at })) }
    }
    if (req.method === 'GET' && top === 'apps' && id && sub === 'users' && leaf) {
      const app = appOf(key, id)
      const user = findUser(app.users, key, leaf, 'GET')
      const { user_app_id, state, installed_at, permissions } = user
      return { user_app_id, state, installed_at, permissions, app_id: app.app_id }
    }
    if (req.method === 'GET' && path === '/vibes/patterns') {
      return {
        patterns: ['tap', 'pulse'],
        max_sequence_length: 3,
        timing: { min_delay_ms: 150, max_delay_ms: 2000, default_delay_ms: 300 },
      }
    }
    if (req.method === 'POST' && path === '/vibes/trigger') return trigger(req, key, body)
    if (req.method === 'GET' && top === 'events' && id && sub === 'response') {
      const record = events.get(id)
      if (!record) throw new HttpError(404, 'event_not_found', `Event ${id} not found`)
      return { event_id: id, ...record }
    }
    throw new HttpError(404, 'not_found', `No route for ${req.method} ${path}`)
  }

  function findUser(users: FixtureUser[], key: string, userAppId: string, method: 'GET' | 'POST') {
    const missing = method === 'GET' ? 404 : 403
    if (userAppId === '@me') {
      const account = accountOf(key)
      const user = users.find((u) => u.account === account)
      if (!user) throw new HttpError(missing, 'not_installed', 'The app is not installed on your ring')
      return user
    }
    if (!UUID.test(userAppId)) throw new HttpError(400, 'invalid_user_app_id', 'user_app_id is malformed')
    const user = users.find((u) => u.user_app_id === userAppId)
    if (!user) throw new HttpError(missing, 'not_installed', 'The user has not installed the app')
    return user
  }

  async function trigger(req: IncomingMessage, key: string, body: unknown) {
    const parsed = serviceTriggerRequestSchema.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new HttpError(400, 'invalid_request', `${issue?.path.join('.')}: ${issue?.message}`)
    }
    const input = parsed.data
    const app = appOf(key, input.app_id)
    const user = findUser(app.users, key, input.user_app_id, 'POST')
    if (!user.permissions.vibes) throw new HttpError(403, 'permission_disabled', 'The user disabled vibes')
    const mode = input.response_mode ?? 'webhook'
    const warnings = truncationWarnings(input.response_config)
    const extra = warnings.length > 0 ? { warnings } : {}
    if (user.notifications === false) {
      return mode === 'await'
        ? { success: false, event_id: null, response_mode: mode, response: { status: 'not_enabled', value: null } }
        : { success: false, event_id: null, response_mode: mode, delivery_status: 'not_enabled' }
    }
    const eventId = `evt_${++counter}`
    events.set(eventId, { status: 'pending', response: null, responded_at: null })
    if (mode !== 'await') {
      const delivery = { method: 'ring', status: 'delivered', latency_ms: 4, app_state: user.state }
      return { success: true, event_id: eventId, response_mode: mode, delivery, ...extra }
    }
    const response = await hold(req, eventId, (input.timeout_ms ?? TRIGGER_LIMITS.defaultTimeoutMs) * scale)
    return { success: true, event_id: eventId, response_mode: mode, response, ...extra }
  }

  /** Await mode: keeps the request open until the user responds or the timeout passes. */
  function hold(req: IncomingMessage, eventId: string, timeoutMs: number) {
    return new Promise<object>((resolve) => {
      const finish = (reason: 'responded' | 'timeout' | 'closed', result: object) => {
        clearTimeout(timer)
        held.delete(eventId)
        signals.emit('await-end', eventId, reason)
        resolve(result)
      }
      const timer = setTimeout(() => finish('timeout', { status: 'timeout', value: null }), timeoutMs)
      held.set(eventId, () => {
        const record = events.get(eventId)
        finish('responded', { status: 'responded', value: record?.response, responded_at: record?.responded_at })
      })
      req.socket.once('close', () => {
        if (held.has(eventId)) finish('closed', {})
      })
      signals.emit('await-start', eventId)
    })
  }

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const requestId = `req_${++counter}`
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, ...headers })
        .end(typeof payload === 'string' ? payload : JSON.stringify(payload))
    const url = new URL(req.url ?? '/', 'http://fixture')
    const raw = await readAll(req)
    let body: unknown
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      return send(400, { error: { code: 'invalid_json', message: 'Body is not JSON' } })
    }
    const authorization = req.headers.authorization
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, authorization, body })
    const fault = faults.shift()
    if (fault && 'drop' in fault) return req.socket.destroy()
    if (fault && 'delayMs' in fault) await new Promise((r) => setTimeout(r, fault.delayMs))
    if (fault && 'status' in fault) return send(fault.status, fault.body ?? '', fault.headers)
    try {
      const key = authorization?.startsWith('Bearer ') ? authorization.slice(7) : ''
      if (!(key in config.keys)) throw new HttpError(401, 'unauthorized', 'Missing or unknown API key')
      if (!url.pathname.startsWith(`${prefix}/`)) throw new HttpError(404, 'not_found', 'Unknown path')
      const result = await route(req, key, url.pathname.slice(prefix.length), url.searchParams, body)
      if (!res.destroyed) send(200, result)
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      send(error.status, { error: { code: error.code, message: error.message } })
    }
  }

  const server = createServer((req, res) => void serve(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    signals,
    inject: (...more) => faults.push(...more),
    respond(eventId, value) {
      events.set(eventId, { status: 'responded', response: value, responded_at: new Date().toISOString() })
      held.get(eventId)?.(value)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Spec rule 6: over 5 options are cut to 5, labels over 15 characters cut to 15, each with a warning. */
function truncationWarnings(config: { type: string; options?: { label: string }[] } | undefined): string[] {
  if (config?.type !== 'emoji' || !config.options) return []
  const warnings: string[] = []
  const { maxOptions, maxLabelLength } = TRIGGER_LIMITS
  if (config.options.length > maxOptions) {
    warnings.push(`response_config.options: kept the first ${maxOptions} of ${config.options.length}`)
  }
  config.options.slice(0, maxOptions).forEach((option, i) => {
    if ([...option.label].length > maxLabelLength) {
      warnings.push(`response_config.options[${i}].label: truncated to ${maxLabelLength} characters`)
    }
  })
  return warnings
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
