// The Durable Object dedup store beyond the contract, in workerd: odd keys, the alarm deleting what
// lapsed, the objects' storage across a restart, and an object that does not answer.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signWebhook } from '@ringhook/core/signature'
import type { ClaimResult } from '@ringhook/core/store'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../redis/support/poll.js'
import { dedupStore } from './support/stores.js'
import { SECRET, startWorkerd, type Workerd } from './support/workerd.js'

const MINUTE = 60_000
let workerd: Workerd
beforeAll(async () => {
  workerd = await startWorkerd()
})
afterAll(() => workerd?.dispose())

const token = (claim: ClaimResult): string => {
  if (claim.state !== 'claimed') throw new Error(`expected a claim, got ${claim.state}`)
  return claim.token
}

/** What an object's tables hold, and its alarm. */
async function rowsOf(object: string): Promise<{ rows: Record<string, number>; alarm: number | null }> {
  return (await (await workerd.fetch(`/rows?object=${encodeURIComponent(object)}`)).json()) as never
}

describe('keys', () => {
  const odd = {
    'a NUL': `a\u0000b-${randomUUID()}`,
    '2 KiB': `${'k'.repeat(2048)}-${randomUUID()}`,
    unicode: `Grüße 🛎️ ring-${randomUUID()}`,
    'a lone surrogate': `\ud800-${randomUUID()}`,
  }

  it.each(Object.entries(odd))('stores a key with %s, and answers its duplicates from it', async (_, key) => {
    const [a, b] = [dedupStore(workerd, 'a'), dedupStore(workerd, 'b')]
    const reply = { status: 200, body: JSON.stringify({ key }) }
    await a.complete(key, token(await a.claim(key, MINUTE)), reply, MINUTE)
    expect(await b.claim(key, MINUTE)).toEqual({ state: 'completed', reply })
  })

  it('keeps apart keys that differ only in a NUL or a lone surrogate', async () => {
    const store = dedupStore(workerd, 'a', { shards: 1, prefix: `apart-${randomUUID()}:` })
    const id = randomUUID()
    // As UTF-8, both lone surrogates are U+FFFD, and a C string ends at the NUL.
    for (const key of [`\ud800${id}`, `\ud801${id}`, `x${id}`, `x${id}\u0000y`])
      expect((await store.claim(key, MINUTE)).state).toBe('claimed')
  })

  it('refuses a key that is not a string with a clear error', async () => {
    await expect(dedupStore(workerd, 'a').claim(42 as unknown as string, MINUTE)).rejects.toMatchObject({
      name: 'DurableStoreError',
      message: 'Durable Object dedup store, claim: key must be a string',
    })
  })
})

describe('expiry', () => {
  it('deletes what lapsed by the object’s alarm, with no request to the object', async () => {
    const prefix = `alarm-${randomUUID()}:`
    const store = dedupStore(workerd, 'a', { shards: 1, prefix })
    const object = `${prefix}0`
    await store.claim(randomUUID(), 200)
    const key = randomUUID()
    await store.complete(key, token(await store.claim(key, MINUTE)), { status: 200, body: 'kept' }, 400)
    const before = await rowsOf(object)
    expect(before.rows.dedup).toBe(2)
    expect(before.alarm).toBeGreaterThan(Date.now() - 1_000)
    await poll('the alarm to delete both', async () => ((await rowsOf(object)).rows.dedup === 0 ? true : undefined))
    expect((await rowsOf(object)).alarm).toBeNull()
  })
})

describe('persisted storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringhook-do-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('still answers a delivery as a duplicate, and a claim as in flight, after workerd restarts', async () => {
    const [done, running] = [randomUUID(), randomUUID()]
    const reply = { status: 200, body: '{"success":true}' }
    const first = await startWorkerd(dir)
    try {
      const store = dedupStore(first, 'a')
      await store.complete(done, token(await store.claim(done, MINUTE)), reply, MINUTE)
      token(await store.claim(running, MINUTE))
    } finally {
      await first.dispose()
    }
    const second = await startWorkerd(dir)
    try {
      const store = dedupStore(second, 'b')
      expect(await store.claim(done, MINUTE)).toEqual({ state: 'completed', reply })
      expect(await store.claim(running, MINUTE)).toEqual({ state: 'in_flight' })
    } finally {
      await second.dispose()
    }
  })
})

describe('an object that does not answer', () => {
  let sequence = 0
  async function deliver(body: string) {
    const { headers } = await signWebhook({ secret: SECRET, body })
    const response = await workerd.fetch('/webhooks?timeoutMs=300', { method: 'POST', headers, body })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  it('gets 503 store_unavailable, as Redis down does; the retry is handled once it answers', async () => {
    const gesture = JSON.stringify({
      event: 'gesture',
      gesture_type: 'double_tap',
      user_app_id: `u-${randomUUID()}`,
      app_id: 'app_demo',
      timestamp: new Date(Date.now() + ++sequence).toISOString(),
      data: {},
    })
    const signal = `signal-${randomUUID()}`
    const held = workerd.fetch(`/hold?object=webhooks:0&ms=1500&signal=${signal}`)
    await poll('the object to be held', async () => {
      const { marked } = (await (await workerd.fetch(`/marked?object=${signal}`)).json()) as { marked: boolean }
      return marked || undefined
    })
    const refused = await deliver(gesture)
    expect(refused).toMatchObject({ status: 503, body: { error: { code: 'store_unavailable' } } })
    await held
    // The claim sent meanwhile lands once the object answers again, and is released: the retry runs.
    const retried = await poll('the object to answer again', async () => {
      const reply = await deliver(gesture)
      return reply.status === 200 ? reply : undefined
    })
    expect(retried.body).toEqual({
      success: true,
      vibe: { sequence: [{ type: 'tap' }], message: 'double_tap in workerd' },
    })
  })
})
