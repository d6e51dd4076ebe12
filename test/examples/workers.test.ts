// examples/workers beyond the examples suite: a delivery retried after the example restarted is
// still the duplicate (its objects' storage is on disk), and GET /users exists only behind ADMIN_TOKEN.
// One restart shows both, so the example (esbuild, then workerd) starts twice rather than four times.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, describe, expect, it } from 'vitest'
import { assertBuilt } from '../runtimes/built.js'
import { cleanUp, listeningPort, startExample, stop } from './harness.js'

assertBuilt('core', 'hono', 'node', 'client', 'users', 'cloudflare')

const SECRET = 'whsec_workers_example_test'
const ADMIN_TOKEN = 'admin_token_for_the_workers_example_0123456789'
const storage = mkdtempSync(join(tmpdir(), 'ringhook-workers-restart-'))
afterAll(() => rmSync(storage, { recursive: true, force: true }))

/** Sends `payload` freshly signed (a retry carries a new signature and header timestamp). */
async function deliver(base: string, payload: Record<string, unknown>) {
  const body = JSON.stringify(payload)
  const { headers } = await signWebhook({ secret: SECRET, body })
  const response = await fetch(`${base}/webhooks`, { method: 'POST', headers, body })
  return {
    status: response.status,
    duplicate: response.headers.get('x-ringhook-duplicate'),
    body: await response.json(),
  }
}

/** Starts the example on a free port with its storage in the test's folder; its base URL. */
async function start(env: Record<string, string> = {}) {
  const started = startExample('workers', { RING_WEBHOOK_SECRET: SECRET, PORT: '0', STORAGE_DIR: storage, ...env })
  return { started, base: `http://127.0.0.1:${await listeningPort(started)}` }
}

describe('examples/workers', { timeout: 60_000 }, () => {
  it('answers a gesture retried after a restart as the duplicate; lists users at GET /users only behind ADMIN_TOKEN', async () => {
    const gesture = {
      event: 'gesture',
      gesture_type: 'double_tap',
      user_app_id: 'u-restart',
      app_id: 'app_demo',
      timestamp: new Date().toISOString(),
      data: {},
    }
    const user = `u-${Date.now()}`
    const withToken = await start({ ADMIN_TOKEN })
    let answered: Awaited<ReturnType<typeof deliver>>
    try {
      answered = await deliver(withToken.base, gesture)
      expect(answered).toMatchObject({ status: 200, duplicate: null, body: { success: true } })
      const installed = { event: 'app.installed', user_app_id: user, app_id: 'app_demo', data: {} }
      const activated = { ...installed, event: 'app.activated' }
      // Arriving out of order: the later event first, the earlier one stale.
      expect((await deliver(withToken.base, { ...activated, timestamp: '2026-11-28T10:00:01.000Z' })).status).toBe(200)
      expect((await deliver(withToken.base, { ...installed, timestamp: '2026-11-28T10:00:00.000Z' })).status).toBe(200)
      expect((await fetch(`${withToken.base}/users`)).status).toBe(401)
      const wrong = await fetch(`${withToken.base}/users`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } })
      expect(wrong.status).toBe(401)
      const listed = await fetch(`${withToken.base}/users`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      const { users } = (await listed.json()) as { users: Array<Record<string, string>> }
      expect(users.find((entry) => entry.user_app_id === user)).toEqual({
        user_app_id: user,
        state: 'active',
        since: '2026-11-28T10:00:01.000Z',
        source: 'webhook',
      })
      expect(await stop(withToken.started)).toBe(0)
    } finally {
      cleanUp(withToken.started)
    }
    const without = await start()
    try {
      expect(await deliver(without.base, gesture)).toEqual({ ...answered, duplicate: 'true' })
      expect(without.started.output()).toContain('ADMIN_TOKEN is not set: GET /users is off')
      const response = await fetch(`${without.base}/users`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(response.status).toBe(404)
      expect(await stop(without.started)).toBe(0)
    } finally {
      cleanUp(without.started)
    }
  })
})
