// Starts each example the way its README says (`pnpm --dir examples/<name> start`, ./harness.ts),
// as a real process on a free port, talks to it over HTTP, and stops it the way a deploy does. The
// examples run the packages' built output.
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, describe, expect, it } from 'vitest'
import { connectPostgres, SHARED_POSTGRES, uniqueTable } from '../postgres/support/postgres.js'
import { assertBuilt } from '../runtimes/built.js'
import { answeredCount, startBurst } from '../support/burst.js'
import { cleanUp, groupGone, listeningPort, type Started, startExample, stop, waitFor } from './harness.js'

assertBuilt('core', 'node', 'express', 'hono', 'aws-lambda', 'h3', 'fastify', 'koa', 'nestjs', 'otel', 'postgres')
assertBuilt('client', 'redis', 'users')
assertBuilt('cloudflare')

const SECRET = 'whsec_example_test'
const ADMIN_TOKEN = 'admin_token_for_the_example_tests_0123456789'

const examples = [
  { name: 'node-http', api: false },
  { name: 'express', api: true },
  { name: 'hono', api: true },
  { name: 'aws-lambda', api: false },
  { name: 'h3', api: true },
  { name: 'fastify', api: true },
  { name: 'koa', api: true },
  { name: 'nestjs', api: true },
  { name: 'otel', api: false },
  // Needs the Postgres on 127.0.0.1:5432 (database `test`), as the Postgres suites do.
  { name: 'postgres', api: false },
  // Needs the Redis on 127.0.0.1:6379, under keys of its own; its admin API is tested in broadcast.test.ts.
  { name: 'broadcast', api: false, env: broadcastEnv },
  // On workerd (Miniflare), its Durable Objects' storage in a folder of each start's own.
  { name: 'workers', api: false, env: workersEnv },
] as { name: string; api: boolean; env?: () => Record<string, string> }[]

/**
 * What examples/broadcast needs besides the secret: an API it never reaches here, and Redis under
 * keys of each start's own (a burst of gestures spends a user's vibes, which another test needs).
 */
function broadcastEnv(): Record<string, string> {
  return {
    RING_API_KEY: 'rk_test_examples',
    RING_API_URL: 'http://127.0.0.1:9',
    RING_APP_ID: 'app_demo',
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `ringhook:test:examples:${randomUUID()}:`,
  }
}

/** examples/workers' storage folder for one start (its own default is the example's `.storage`). */
function workersEnv(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'ringhook-workers-example-'))
  storageDirs.push(dir)
  return { STORAGE_DIR: dir }
}
const storageDirs: string[] = []
afterAll(() => {
  for (const dir of storageDirs) rmSync(dir, { recursive: true, force: true })
})

let sent = 0

/** A signed gesture webhook; each call a distinct delivery. */
async function gestureDelivery(gestureType = 'double_tap') {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: gestureType,
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    // A distinct payload timestamp each time: an identical payload would be answered as a duplicate.
    timestamp: new Date(Date.now() + ++sent).toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret: SECRET, body })
  return { body, headers }
}

async function sendGesture(base: string, gestureType?: string) {
  const { body, headers } = await gestureDelivery(gestureType)
  const response = await fetch(`${base}/webhooks`, { method: 'POST', headers, body })
  return { status: response.status, body: await response.json() }
}

const vibeWith = (message: string) => ({
  status: 200,
  body: { success: true, vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message } },
})

function setMessage(base: string, body: string, token?: string) {
  return fetch(`${base}/api/reply-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  })
}

/**
 * Streams a JSON body in 1 KiB chunks with no Content-Length (only a reader that counts can stop
 * it) until the server answers; the status, or undefined if it never did.
 */
function streamUntilAnswered(port: number, token: string, maxChunks = 256): Promise<number | undefined> {
  return new Promise((resolve) => {
    let answered = false
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/reply-message',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      },
      (res) => {
        answered = true
        res.resume()
        resolve(res.statusCode)
      },
    )
    // The server hangs up on the rest of the body once it has answered.
    req.on('error', () => resolve(undefined))
    req.write(`{"message":"`)
    const pump = (left: number) => {
      if (answered || left === 0) return void req.end('"}')
      req.write('x'.repeat(1024), () => setImmediate(pump, left - 1))
    }
    pump(maxChunks)
  })
}

/** The output's lines that parse as JSON objects: pino's, one per log entry. */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : []))
}

/**
 * Sends a delivery whose body no longer matches its signature, stops the example, and checks its
 * log: exactly one pino line with a `code` (the refusal, a warning), and the secret in no line.
 */
async function expectForgedDeliveryLogged(started: Started): Promise<void> {
  const base = `http://127.0.0.1:${await listeningPort(started)}`
  const { body, headers } = await gestureDelivery()
  const forged = await fetch(`${base}/webhooks`, { method: 'POST', headers, body: body.replace('double_tap', 'tap') })
  expect(forged.status).toBe(401)
  expect(await stop(started)).toBe(0)
  const refusals = jsonLines(started.output()).filter((entry) => entry.code !== undefined)
  expect(refusals).toHaveLength(1)
  expect(refusals[0]).toMatchObject({ level: 40, code: 'unauthorized', msg: expect.any(String) })
  expect(started.output()).not.toContain(SECRET)
}

// Each test starts an example as a process of its own (pnpm, then the example's server), several at
// once: on two cores in a slow spell, four of them took over the default 20 s (CI run of 23:06Z).
describe.concurrent('examples', { timeout: 60_000 }, () => {
  it.each(examples)('$name answers gestures with a vibe whose message fits the rules', async ({ name, api, env }) => {
    const started = startExample(name, { ...env?.(), RING_WEBHOOK_SECRET: SECRET, PORT: '0', ADMIN_TOKEN })
    try {
      const port = await listeningPort(started)
      const base = `http://127.0.0.1:${port}`
      expect(await sendGesture(base)).toEqual(vibeWith('Got your double_tap'))
      // A gesture type long enough to push the reply past 80 characters (code points, emoji included).
      for (const long of ['g'.repeat(72), '👋'.repeat(100)]) {
        const { status, body } = await sendGesture(base, long)
        expect(status).toBe(200)
        expect(Array.from(body.vibe.message)).toHaveLength(80)
        expect(body.vibe.message).toMatch(/^Got your .*…$/u)
      }
      if (api) {
        // The admin API, beside the webhook route: no token, a wrong one, then the right one.
        const json = JSON.stringify({ message: 'Hello from the API' })
        expect((await setMessage(base, json)).status).toBe(401)
        expect((await setMessage(base, json, `${ADMIN_TOKEN}x`)).status).toBe(401)
        expect((await fetch(`${base}/api/reply-message`)).status).toBe(401)
        expect(await sendGesture(base)).toEqual(vibeWith('Got your double_tap'))
        const set = await setMessage(base, json, ADMIN_TOKEN)
        expect(await set.json()).toEqual({ message: 'Hello from the API' })
        expect(await sendGesture(base)).toEqual(vibeWith('Hello from the API'))
        // Bodies past the limit are refused, declared or streamed, and so is a message past 80 characters.
        const declared = await setMessage(base, JSON.stringify({ message: 'x'.repeat(64 * 1024) }), ADMIN_TOKEN)
        expect(declared.status).toBe(413)
        expect(await streamUntilAnswered(port, ADMIN_TOKEN)).toBe(413)
        const long = await setMessage(base, JSON.stringify({ message: 'x'.repeat(81) }), ADMIN_TOKEN)
        expect(long.status).toBe(400)
        expect(await sendGesture(base)).toEqual(vibeWith('Hello from the API'))
      }
      expect(await stop(started)).toBe(0)
      expect(started.output()).toContain('Stopped cleanly')
      expect(await groupGone(started.child.pid as number)).toBe(true)
    } finally {
      cleanUp(started)
    }
  })

  it.each(examples)(
    '$name, started as its README says, stops gracefully on SIGTERM during a keep-alive burst, losing nothing',
    async ({ name, api, env }) => {
      const started = startExample(name, { ...env?.(), RING_WEBHOOK_SECRET: SECRET, PORT: '0' })
      try {
        const port = await listeningPort(started)
        if (api) {
          // Without ADMIN_TOKEN the admin API does not exist.
          expect(started.output()).toContain('ADMIN_TOKEN is not set')
          const response = await setMessage(`http://127.0.0.1:${port}`, JSON.stringify({ message: 'hijacked' }))
          expect(response.status).toBe(404)
        }
        const burst = startBurst({ port, lanes: 8, maxPerLane: 400, next: () => gestureDelivery() })
        await burst.answered(40)
        const exit = stop(started)
        const tally = await burst.done
        // Each request was answered (200, or 503 + Retry-After + Connection: close) or refused
        // before it was written; none was cut off after being sent.
        expect(tally.lost).toEqual([])
        expect(tally.bad503).toEqual([])
        expect(tally.statuses[503]).toBeGreaterThan(0)
        expect(Object.keys(tally.statuses).sort()).toEqual(['200', '503'])
        expect(answeredCount(tally) + tally.refused).toBe(tally.sent)
        expect(await exit).toBe(0)
        expect(started.output()).toContain('Stopped cleanly')
        expect(await groupGone(started.child.pid as number)).toBe(true)
      } finally {
        cleanUp(started)
      }
    },
  )

  it.each(examples)('$name logs a forged delivery through pino: one JSON warning, no secret', async ({ name, env }) => {
    const started = startExample(name, { ...env?.(), RING_WEBHOOK_SECRET: SECRET, PORT: '0' })
    try {
      await expectForgedDeliveryLogged(started)
    } finally {
      cleanUp(started)
    }
  })

  it('postgres logs a handler that failed through pino: one JSON error line, no secret', async () => {
    // The example in a schema of its own, whose gestures table goes away once it has started: the
    // handler's insert is refused, and the handler fails.
    const pool = await connectPostgres()
    const schema = uniqueTable('example_failing')
    await pool.query(`CREATE SCHEMA ${schema}`)
    const started = startExample('postgres', {
      RING_WEBHOOK_SECRET: SECRET,
      PORT: '0',
      DATABASE_URL: `${SHARED_POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    })
    try {
      const base = `http://127.0.0.1:${await listeningPort(started)}`
      await pool.query(`DROP TABLE ${schema}.example_gestures`)
      const { body, headers } = await gestureDelivery()
      const response = await fetch(`${base}/webhooks`, { method: 'POST', headers, body })
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ error: { code: 'handler_error' } })
      expect(await stop(started)).toBe(0)
      const failures = jsonLines(started.output()).filter((entry) => entry.code !== undefined)
      expect(failures).toHaveLength(1)
      expect(failures[0]).toMatchObject({
        level: 50,
        code: 'handler_error',
        phase: 'handler',
        // What Drizzle threw: the query that failed (its cause, Postgres' refusal, is not in the line).
        err: expect.stringContaining('Failed query: insert into "example_gestures"'),
        msg: expect.stringContaining('A handler failed'),
      })
      expect(started.output()).not.toContain(SECRET)
      expect(started.output()).not.toContain(headers['x-service-signature'])
    } finally {
      cleanUp(started)
      await pool.query(`DROP SCHEMA ${schema} CASCADE`)
      await pool.end()
    }
  })

  it('otel serves the ringhook metrics its README queries at GET /metrics, for Prometheus', async () => {
    const started = startExample('otel', { RING_WEBHOOK_SECRET: SECRET, PORT: '0' })
    try {
      const port = await listeningPort(started)
      const base = `http://127.0.0.1:${port}`
      expect(await sendGesture(base)).toEqual(vibeWith('Got your double_tap'))
      const { body, headers } = await gestureDelivery()
      const forged = await fetch(`${base}/webhooks`, {
        method: 'POST',
        headers,
        body: body.replace('double_tap', 'tap'),
      })
      expect(forged.status).toBe(401)
      const scrape = await fetch(`${base}/metrics`)
      expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/)
      const text = await scrape.text()
      const sample = (name: string, labels: string) =>
        new RegExp(`^${name}\\{${labels},[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]
      expect(sample('ringhook_deliveries_total', 'ringhook_event="gesture",ringhook_outcome="ok"')).toBe('1')
      expect(sample('ringhook_deliveries_total', 'ringhook_outcome="unauthorized"')).toBe('1')
      expect(sample('ringhook_verification_failures_total', 'ringhook_verification_reason="signature_mismatch"')).toBe(
        '1',
      )
      expect(sample('ringhook_handler_duration_count', 'ringhook_event="gesture",ringhook_handler_outcome="ok"')).toBe(
        '1',
      )
      expect(text).not.toContain(SECRET)
      expect(await stop(started)).toBe(0)
      expect(started.output()).toContain('Stopped cleanly')
    } finally {
      cleanUp(started)
    }
  })

  it.each(examples)('$name exits 1 and says why when RING_WEBHOOK_SECRET is missing', async ({ name, env }) => {
    const { child, output } = startExample(name, { ...env?.(), PORT: '0' })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(output()).toContain('RING_WEBHOOK_SECRET is not set: copy the webhook secret from the apps page')
  })
})

// The queue example runs two processes, each started by its own script; both need Redis (on
// 127.0.0.1:6379, as the rest of the suite). A queue of the test's own keeps its jobs apart.
describe.concurrent('examples: queue', { timeout: 60_000 }, () => {
  const env = { RING_WEBHOOK_SECRET: SECRET, RINGHOOK_QUEUE: `examples-test-${process.pid}` }

  it('start:web answers gestures with a vibe whose message fits the rules, and stops on SIGTERM', async () => {
    const started = startExample('queue', { ...env, PORT: '0' }, 'start:web')
    try {
      const port = await listeningPort(started)
      const base = `http://127.0.0.1:${port}`
      expect(await sendGesture(base)).toEqual(vibeWith('Got your double_tap'))
      for (const long of ['g'.repeat(72), 'g'.repeat(200), '👋'.repeat(100)]) {
        const { status, body } = await sendGesture(base, long)
        expect(status).toBe(200)
        expect(Array.from(body.vibe.message)).toHaveLength(80)
        expect(body.vibe.message).toMatch(/^Got your .*…$/u)
      }
      expect(await stop(started)).toBe(0)
      expect(started.output()).toContain('Stopped cleanly')
      expect(await groupGone(started.child.pid as number)).toBe(true)
    } finally {
      cleanUp(started)
    }
  })

  it('start:web logs a forged delivery through pino: one JSON warning, no secret', async () => {
    const started = startExample('queue', { ...env, PORT: '0' }, 'start:web')
    try {
      await expectForgedDeliveryLogged(started)
    } finally {
      cleanUp(started)
    }
  })

  it('start:worker stops on SIGTERM, nothing of it left running', async () => {
    const started = startExample('queue', env, 'start:worker')
    try {
      await waitFor(started, /taking jobs from/)
      expect(await stop(started)).toBe(0)
      expect(started.output()).toContain('Stopped cleanly')
      expect(await groupGone(started.child.pid as number)).toBe(true)
    } finally {
      cleanUp(started)
    }
  })
})
