// examples/postgres as its README runs it: a notification answer sent twice (the service's retry)
// is stored once with plain pg, a gesture counted once with Drizzle and its vibe replayed; and
// whatever odd value the kit accepts is stored, never answered 500 on every retry.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { signWebhook } from '@ringhook/core/signature'
import { dedupKeyFor } from '@ringhook/core/store'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, ROOT } from '../runtimes/built.js'
import { connectPostgres, SHARED_POSTGRES } from './support/postgres.js'

assertBuilt('core', 'node', 'postgres')

const SECRET = 'whsec_postgres_example'
let pool: pg.Pool
let child: ChildProcess | undefined
let base = ''

beforeAll(async () => {
  pool = await connectPostgres()
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  const started = spawn('pnpm', ['--dir', join(ROOT, 'examples', 'postgres'), 'start'], {
    env: { ...process.env, RING_WEBHOOK_SECRET: SECRET, PORT: String(port), DATABASE_URL: SHARED_POSTGRES },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  child = started
  await new Promise<void>((resolve, reject) => {
    let output = ''
    started.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('listening on')) resolve()
    })
    started.once('exit', (code) => reject(new Error(`the example exited (${code}):\n${output}`)))
  })
  base = `http://127.0.0.1:${port}/webhooks`
})

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  }
  await pool.end()
})

async function send(payload: Record<string, unknown>) {
  const body = JSON.stringify(payload)
  const { headers } = await signWebhook({ secret: SECRET, body })
  const response = await fetch(base, { method: 'POST', headers, body })
  return {
    status: response.status,
    duplicate: response.headers.get('x-ringhook-duplicate'),
    body: await response.json(),
  }
}

const user = '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b'

describe('examples/postgres', () => {
  it('stores a notification answer once, however often it is delivered', async () => {
    const eventId = `evt_${Date.now()}_${Math.random().toString(36).slice(2)}`
    const payload = {
      event: 'notification.responded',
      user_app_id: user,
      app_id: 'app_demo',
      timestamp: new Date().toISOString(),
      data: { event_id: eventId, response: 'yes' },
    }
    expect(await send(payload)).toEqual({ status: 200, duplicate: null, body: { ok: true } })
    expect(await send(payload)).toEqual({ status: 200, duplicate: 'true', body: { ok: true } })
    const { rows } = await pool.query('SELECT response FROM example_notification_answers WHERE event_id = $1', [
      eventId,
    ])
    expect(rows).toEqual([{ response: 'yes' }])
  })

  it('counts a gesture once with Drizzle and replays its vibe to the retry', async () => {
    const timestamp = new Date(Date.now() + Math.floor(Math.random() * 1e6)).toISOString()
    const payload = {
      event: 'gesture',
      gesture_type: 'double_tap',
      user_app_id: user,
      app_id: 'app_demo',
      timestamp,
      data: {},
    }
    const first = await send(payload)
    expect(first).toMatchObject({ status: 200, duplicate: null, body: { vibe: { message: 'Got your double_tap' } } })
    const retry = await send(payload)
    expect(retry).toEqual({ ...first, duplicate: 'true' })
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM example_gestures WHERE signed_at = $1', [
      timestamp,
    ])
    expect(rows).toEqual([{ n: 1 }])
  })
})

const unique = () => `${Date.now()}_${Math.random().toString(36).slice(2)}`

/** A notification answer of `appId` to `eventId`. */
const answer = (appId: string, eventId: string, extra: { user?: string; response?: string } = {}) => ({
  event: 'notification.responded',
  user_app_id: extra.user ?? user,
  app_id: appId,
  timestamp: new Date().toISOString(),
  data: { event_id: eventId, response: extra.response ?? 'yes' },
})

/** The answers stored for an app, as the example wrote them. */
async function stored(appId: string) {
  const { rows } = await pool.query(
    'SELECT event_id, user_app_id, response FROM example_notification_answers WHERE app_id = $1 ORDER BY event_id',
    [appId],
  )
  return rows
}

describe('examples/postgres with values its tables could not hold', () => {
  it('stores a NUL in every field of an answer and a gesture, as U+FFFD', async () => {
    const appId = `app_nul_${unique()}`
    const payload = answer(appId, 'evt\u0000nul', { user: 'u\u0000ser', response: 'emoji:\u0000' })
    expect(await send(payload)).toEqual({ status: 200, duplicate: null, body: { ok: true } })
    expect(await send(payload)).toMatchObject({ status: 200, duplicate: 'true' })
    expect(await stored(appId)).toEqual([
      { event_id: 'evt\uFFFDnul', user_app_id: 'u\uFFFDser', response: 'emoji:\uFFFD' },
    ])

    const timestamp = `${new Date().toISOString()}`
    const gesture = {
      event: 'gesture',
      gesture_type: 'double\u0000tap',
      user_app_id: `u\u0000${unique()}`,
      app_id: appId,
      timestamp,
      data: {},
    }
    expect(await send(gesture)).toMatchObject({ status: 200, duplicate: null })
    const { rows } = await pool.query('SELECT gesture_type FROM example_gestures WHERE user_app_id = $1', [
      gesture.user_app_id.replace('\u0000', '\uFFFD'),
    ])
    expect(rows).toEqual([{ gesture_type: 'double\uFFFDtap' }])
  })

  it('stores an event_id of 3,000 characters (past a btree entry) once', async () => {
    const appId = `app_long_${unique()}`
    // Random characters: Postgres cannot compress them under its index limit.
    const eventId = Array.from({ length: 3000 }, () => Math.random().toString(36).charAt(2)).join('')
    expect(await send(answer(appId, eventId))).toEqual({ status: 200, duplicate: null, body: { ok: true } })
    expect(await send(answer(appId, eventId))).toMatchObject({ status: 200, duplicate: 'true' })
    expect(await stored(appId)).toEqual([{ event_id: eventId, user_app_id: user, response: 'yes' }])
  })

  it('stores one event_id answered in two apps twice: the kit keys on the app and the id', async () => {
    const [first, second] = [`app_a_${unique()}`, `app_b_${unique()}`]
    const eventId = `evt_shared_${unique()}`
    expect((await send(answer(first, eventId, { response: 'yes' }))).status).toBe(200)
    expect((await send(answer(second, eventId, { response: 'no' }))).status).toBe(200)
    expect(await stored(first)).toEqual([{ event_id: eventId, user_app_id: user, response: 'yes' }])
    expect(await stored(second)).toEqual([{ event_id: eventId, user_app_id: user, response: 'no' }])
  })

  it('acknowledges an answer delivered again after the inbox forgot it, stored once', async () => {
    const appId = `app_late_${unique()}`
    const payload = answer(appId, `evt_late_${unique()}`)
    expect((await send(payload)).status).toBe(200)
    // Past the inbox's TTL its row is swept: the next copy runs the handler again.
    await pool.query('DELETE FROM example_ringhook_dedup WHERE key = $1', [dedupKeyFor(payload as never)])
    expect(await send(payload)).toEqual({ status: 200, duplicate: null, body: { ok: true } })
    expect(await stored(appId)).toHaveLength(1)
  })
})
