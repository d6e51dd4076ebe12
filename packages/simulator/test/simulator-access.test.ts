// The simulator is a local tool: the attacks a web page could make on it, each against a real
// simulator on 127.0.0.1 with a real HTTP client that sends the headers a browser would.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlRouter } from '../src/control/routes.js'
import { createSimulator, type Simulator } from '../src/index.js'
import { startReceiver, type TestReceiver } from './support.js'

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

/** One request through node:http, which sends the Host, Origin and Sec-Fetch-Site given as they are. */
function call(
  sim: Simulator,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${sim.url}${path}`,
      { method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end(init.body === undefined ? undefined : JSON.stringify(init.body))
  })
}

const code = (answer: Answer) => (JSON.parse(answer.text) as { error: { code: string } }).error.code
const EVIL = 'http://evil.example'

let sim: Simulator
let canary: TestReceiver
let userId: string
let keyId: string
let appId: string
let userAppId: string

beforeAll(async () => {
  // Where an attacker would point the simulator: a local service it should never reach for them.
  canary = await startReceiver()
  sim = await createSimulator({ timeScale: 0.001 })
  const user = sim.users.create({ name: 'Ada' })
  userId = user.id
  keyId = sim.keys.create({ user_id: user.id }).id
  const app = sim.apps.create({ key_id: keyId, secret: 'whsec_access_test_secret' })
  appId = app.app_id
  userAppId = (await sim.install(app.app_id, user.id, { activate: true })).install.user_app_id
})
afterAll(async () => {
  await sim.close()
  await canary.close()
})

describe('a page on another origin', () => {
  it('cannot read the state: refused, with no CORS header, and no secret in the answer', async () => {
    const foreign: Record<string, string>[] = [
      { origin: EVIL },
      { origin: 'null' },
      { origin: `http://localhost:${canary.port}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]
    for (const headers of foreign) {
      const answer = await call(sim, '/_sim/state', { headers })
      expect(answer.status).toBe(403)
      expect(code(answer)).toBe('origin_not_allowed')
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
      expect(answer.text).not.toContain('whsec_access_test_secret')
    }
    const preflight = await call(sim, '/_sim/apps', {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(403)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined()
  })

  it('cannot make the simulator post to a local address, even holding the token', async () => {
    const attempts = [
      { method: 'POST', path: '/_sim/apps', body: { key_id: keyId, webhook_url: canary.url } },
      { method: 'PATCH', path: `/_sim/apps/${appId}`, body: { webhook_url: canary.url } },
      { method: 'POST', path: `/_sim/installs/${userAppId}/gesture`, body: { gesture_type: 'tap' } },
      { method: 'POST', path: '/_sim/reset', body: {} },
    ]
    for (const { method, path, body } of attempts) {
      const answer = await call(sim, path, {
        method,
        body,
        headers: { origin: EVIL, 'content-type': 'text/plain', 'x-ringhook-sim-token': sim.token },
      })
      expect(answer.status).toBe(403)
      expect(code(answer)).toBe('origin_not_allowed')
    }
    await sim.idle()
    expect(sim.state().apps.map((app) => app.app_id)).toEqual([appId])
    expect(sim.apps.get(appId).webhook_url).toBeNull()
    expect(sim.log.entries({ type: 'gesture' })).toEqual([])
    expect(canary.received).toEqual([])
  })
})

describe('a state-changing call', () => {
  it('needs the run token; reads do not', async () => {
    const create = (headers: Record<string, string>) =>
      call(sim, '/_sim/users', { method: 'POST', body: { name: 'Grace' }, headers })
    const missing = await create({})
    expect(missing.status).toBe(401)
    expect(code(missing)).toBe('token_required')
    expect(JSON.parse(missing.text).error.message).toContain('x-ringhook-sim-token')
    const wrong = await create({ 'x-ringhook-sim-token': `${sim.token.slice(1)}x` })
    expect(wrong.status).toBe(401)
    expect(sim.state().users.map((user) => user.name)).toEqual(['Ada'])

    expect((await create({ 'x-ringhook-sim-token': sim.token })).status).toBe(201)
    // Its own page: same origin, as a browser sends it, with the token the page was given.
    const ownOrigin = { origin: sim.url, 'sec-fetch-site': 'same-origin', 'x-ringhook-sim-token': sim.token }
    const own = await create(ownOrigin)
    expect(own.status).toBe(201)
    expect(own.headers['access-control-allow-origin']).toBeUndefined()
    expect((await call(sim, '/_sim/state')).status).toBe(200)
  })

  it('needs the run token on every route the control router declares that is not a read', async () => {
    // The router's own table: a route added later is checked without this test changing.
    const writes = controlRouter()
      .declared()
      .filter((route) => route.method !== 'GET')
    expect(writes.filter((route) => route.method === 'PATCH').map((route) => route.pattern)).toEqual([
      '/keys/:key_id',
      '/users/:user_id',
      '/apps/:app_id',
      '/installs/:user_app_id',
    ])
    // Real ids, so that a call let through would change something.
    const ids: Record<string, string> = { key_id: keyId, user_id: userId, app_id: appId, user_app_id: userAppId }
    const before = JSON.stringify(sim.state())
    for (const { method, pattern } of writes) {
      const path = `/_sim${pattern.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? 'unknown')}`
      const withoutToken: Record<string, string>[] = [{}, { 'x-ringhook-sim-token': `${sim.token.slice(1)}x` }]
      for (const headers of withoutToken) {
        const answer = await call(sim, path, {
          method,
          body: {},
          headers: { 'content-type': 'application/json', ...headers },
        })
        expect({ method, path, status: answer.status, code: code(answer) }).toEqual({
          method,
          path,
          status: 401,
          code: 'token_required',
        })
      }
    }
    await sim.idle()
    expect(JSON.stringify(sim.state())).toBe(before)
    expect(canary.received).toEqual([])
  })

  it('refuses a token option that is too short or a host entry with a port', async () => {
    await expect(createSimulator({ token: 'short' })).rejects.toThrow(RangeError)
    await expect(createSimulator({ allowedHosts: ['sim.test:4010'] })).rejects.toThrow(/host names/)
  })
})

describe('the Host header (DNS rebinding)', () => {
  it('refuses a name that is not this machine, on every path', async () => {
    for (const path of ['/_sim/state', '/', '/v1/vibes/patterns']) {
      const answer = await call(sim, path, { headers: { host: `evil.example:${sim.port}` } })
      expect(answer.status).toBe(403)
      expect(answer.headers['content-type']).toContain('application/json')
      expect(code(answer)).toBe('host_not_allowed')
      expect(JSON.parse(answer.text).error.message).toContain('allowedHosts')
    }
    // Rebinding runs the attacker's script on its own name: same origin as the Host, still refused.
    const rebound = `rebind.example:${sim.port}`
    const write = await call(sim, '/_sim/reset', {
      method: 'POST',
      headers: { host: rebound, origin: `http://${rebound}`, 'x-ringhook-sim-token': sim.token },
    })
    expect(code(write)).toBe('host_not_allowed')
    expect(sim.state().users.length).toBeGreaterThan(0)
  })

  it('answers to IP addresses, localhost, and the names allowed', async () => {
    for (const host of [
      `127.0.0.1:${sim.port}`,
      `localhost:${sim.port}`,
      `LocalHost:${sim.port}`,
      `[::1]:${sim.port}`,
    ]) {
      expect((await call(sim, '/_sim/state', { headers: { host } })).status).toBe(200)
    }
    const named = await createSimulator({ allowedHosts: ['Sim.Test'] })
    try {
      expect((await call(named, '/_sim/state', { headers: { host: `sim.test:${named.port}` } })).status).toBe(200)
      expect((await call(named, '/_sim/state', { headers: { host: `other.test:${named.port}` } })).status).toBe(403)
    } finally {
      await named.close()
    }
  })

  it('refuses a request without a Host header', async () => {
    const socket = connect(sim.port, '127.0.0.1')
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      text += chunk
    })
    await new Promise((resolve) => socket.once('end', resolve).write('GET /_sim/state HTTP/1.0\r\n\r\n'))
    expect(text).toMatch(/^HTTP\/1\.1 403/)
    expect(text).toContain('"host_not_allowed"')
  })
})
