// examples/postgres as its README runs it: a notification answer sent twice (the service's retry)
// is stored once with plain pg, a gesture counted once with Drizzle and its vibe replayed.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { signWebhook } from '@ringhook/core/signature'
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
    const { rows } = await pool.query('SELECT response FROM example_answers WHERE event_id = $1', [eventId])
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
