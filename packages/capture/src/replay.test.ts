import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Capture, createCapture } from '@ringhook/core/capture'
import { signWebhook, verifyWebhook } from '@ringhook/core/signature'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Running, startReceiver } from '../test/servers.js'
import { fileSink } from './file-sink.js'
import { readCaptures } from './read.js'
import { mergePatch, replay } from './replay.js'

const production = 'whsec_production'
const local = 'whsec_local'

const gesture = (user: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: user,
    app_id: 'app_replay',
    timestamp: '2027-01-15T08:00:00.000Z',
    data: {},
    ...extra,
  })
const responded = (eventId: string) =>
  JSON.stringify({
    event: 'notification.responded',
    user_app_id: 'u_notified',
    app_id: 'app_replay',
    timestamp: '2027-01-15T08:00:01.000Z',
    data: { event_id: eventId, response: 'yes' },
  })

async function post(url: string, body: string, secret = production) {
  const { headers } = await signWebhook({ secret, body })
  const response = await fetch(url, { method: 'POST', headers, body })
  return { status: response.status, body: await response.text() }
}

let dir = ''
let source: Running
let target: Running
let capture: Capture
let path = ''

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-replay-'))
  path = join(dir, 'deliveries.jsonl')
  capture = createCapture({ sink: fileSink({ path }), personal: false })
  source = await startReceiver({ secret: production, capture })
  target = await startReceiver({ secret: local })
})
afterEach(async () => {
  await Promise.all([source.close(), target.close()])
  await capture.close()
  await rm(dir, { recursive: true, force: true })
})

/** Sends production traffic to the source: accepted, a duplicate, a failure, a notification answer. */
async function production_traffic() {
  const answers = [
    await post(source.url, gesture('u_1')),
    await post(source.url, gesture('u_1')),
    await post(source.url, gesture('u_2', { data: { fail: true } })),
    await post(source.url, responded('evt_1')),
  ]
  await capture.flush()
  return answers
}

describe('replay', () => {
  it('sends every captured delivery to another receiver, handled as the original was', async () => {
    const originals = await production_traffic()
    const records = await readCaptures(path)
    expect(records.map((r) => r.outcome)).toEqual(['accepted', 'duplicate', 'failed', 'accepted'])

    const summary = await replay(records, { url: target.url, secret: local })
    expect(summary.sent).toBe(4)
    expect(summary.results.map((r) => r.answer?.status)).toEqual(originals.map((o) => o.status))
    expect(summary.results.map((r) => r.answer?.body)).toEqual(originals.map((o) => o.body))
    expect(summary.results.map((r) => r.answer?.duplicate)).toEqual([false, true, false, false])
    expect(summary.statuses).toEqual({ '200': 3, '500': 1 })
    expect(target.handled).toEqual(['gesture:u_1', 'notification.responded:u_notified'])

    // Sent again, what the target handled is a duplicate; the failure is still retried and fails.
    const again = await replay(records, { url: target.url, secret: local })
    expect(again.results.map((r) => [r.answer?.status, r.answer?.duplicate])).toEqual([
      [200, true],
      [200, true],
      [500, false],
      [200, true],
    ])
    expect(target.handled).toHaveLength(2)
  })

  it('replays a filtered selection, and a dry run sends nothing but signs what it would', async () => {
    await production_traffic()
    const failed = await readCaptures(path, { outcome: 'failed' })
    const before = Date.now()
    const summary = await replay(failed, { url: target.url, secret: local, dryRun: true })
    expect(summary.sent).toBe(0)
    expect(summary.statuses).toEqual({})
    const [result] = summary.results
    expect(result?.original).toEqual({ status: 500, outcome: 'failed', code: 'handler_error' })
    expect(result?.answer).toBeUndefined()
    const request = result?.request
    expect(request?.body).toBe(gesture('u_2', { data: { fail: true } }))
    expect(Number(request?.headers['x-service-timestamp'])).toBeGreaterThanOrEqual(Math.floor(before / 1000))
    const verified = await verifyWebhook({
      rawBody: request?.body as string,
      signature: request?.headers['x-service-signature'] as string,
      timestamp: request?.headers['x-service-timestamp'] as string,
      secret: local,
    })
    expect(verified.ok).toBe(true)
    expect(target.handled).toEqual([])
  })

  it('edits a payload before signing it', async () => {
    await production_traffic()
    const [first] = await readCaptures(path, { outcome: 'accepted', event: 'gesture' })
    const summary = await replay([first as never], {
      url: target.url,
      secret: local,
      edit: (body) => mergePatch(body, { gesture_type: 'double_tap', user_app_id: 'u_edited' }),
    })
    expect(summary.results[0]?.answer?.status).toBe(200)
    expect(JSON.parse(summary.results[0]?.answer?.body as string).vibe.message).toBe('Got double_tap')
    expect(target.handled).toEqual(['gesture:u_edited'])
  })

  it('sends no body it did not capture whole: a forgery cut to a prefix, one left out', async () => {
    await production_traffic()
    const forged = JSON.stringify({ event: 'gesture', pad: 'x'.repeat(4000) })
    expect((await post(source.url, forged, 'whsec_stranger')).status).toBe(401)
    await capture.flush()
    const records = await readCaptures(path)
    const [first] = records
    const cut = records.find((record) => record.request.cut === 'prefix')
    if (first === undefined || cut === undefined) throw new Error('the records are missing')
    const leftOut = structuredClone(cut)
    leftOut.request.cut = 'unscanned'
    const summary = await replay([first, cut, leftOut], { url: target.url, secret: local })
    expect(summary.sent).toBe(1)
    expect(summary.statuses).toEqual({ '200': 1, skipped: 2 })
    expect(summary.results.map((result) => result.skipped)).toEqual([
      undefined,
      `only the first bytes of its body were captured (${forged.length} arrived)`,
      'its body was left out: personal fields could not be removed from it',
    ])
    expect(target.handled).toEqual(['gesture:u_1'])
  })

  it('reads at most 64 KiB of an answer by default, and says it cut the rest', async () => {
    await production_traffic()
    const [first] = await readCaptures(path, { outcome: 'accepted', event: 'gesture' })
    // Something in the way answers a page of 1 MiB, in 16 KiB chunks.
    const page = createServer((request, response) => {
      request.resume()
      response.writeHead(200, { 'content-type': 'text/html' })
      const chunk = 'x'.repeat(16 * 1024)
      for (let i = 0; i < 64; i++) response.write(chunk)
      response.end()
    })
    page.listen(0, '127.0.0.1')
    await once(page, 'listening')
    try {
      const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/webhooks`
      const summary = await replay([first as never], { url, secret: local })
      const answer = summary.results[0]?.answer
      expect({ status: answer?.status, cut: answer?.cut, length: answer?.body.length }).toEqual({
        status: 200,
        cut: true,
        length: 64 * 1024,
      })
    } finally {
      page.closeAllConnections()
      await new Promise((resolve) => page.close(resolve))
    }
  })

  it('sends no forged request unless asked by name, and then counts them', async () => {
    await production_traffic()
    // Strangers' requests, whole (under the 1 KiB prefix): an uninstall for a victim, a gesture.
    const uninstall = JSON.stringify({
      event: 'app.uninstalled',
      user_app_id: 'u_victim',
      app_id: 'app_replay',
      timestamp: '2027-01-15T08:00:02.000Z',
      data: {},
    })
    expect((await post(source.url, uninstall, 'whsec_stranger')).status).toBe(401)
    expect((await post(source.url, gesture('u_forged'), 'whsec_stranger')).status).toBe(401)
    await capture.flush()
    const records = await readCaptures(path)
    expect(records.filter((record) => record.authentic === false)).toHaveLength(2)
    const uninstalled: string[] = []
    target.receiver.on('app.uninstalled', (event) => void uninstalled.push(event.user_app_id))

    const summary = await replay(records, { url: target.url, secret: local })
    expect(summary.sent).toBe(4)
    expect(summary.unauthenticated).toBe(0)
    expect(summary.statuses).toEqual({ '200': 3, '500': 1, skipped: 2 })
    expect(summary.results.filter((result) => result.unauthenticated).map((result) => result.skipped)).toEqual([
      'it was not authenticated when it arrived (anyone could have sent it); includeUnauthenticated sends it',
      'it was not authenticated when it arrived (anyone could have sent it); includeUnauthenticated sends it',
    ])
    expect(target.handled).toEqual(['gesture:u_1', 'notification.responded:u_notified'])
    expect(uninstalled).toEqual([])

    // An older record, without `authentic`, refused at the signature check, is a stranger's too.
    const older = records.filter((record) => record.authentic === false).map(({ authentic: _, ...record }) => record)
    const old = await replay(older, { url: target.url, secret: local })
    expect([old.sent, old.statuses]).toEqual([0, { skipped: 2 }])
    expect(uninstalled).toEqual([])

    // Asked for by name, they are sent, and counted.
    const asked = await replay(records, { url: target.url, secret: local, includeUnauthenticated: true })
    expect([asked.sent, asked.unauthenticated]).toEqual([6, 2])
    expect(uninstalled).toEqual(['u_victim'])
    expect(target.handled).toContain('gesture:u_forged')
  })

  it('counts a target that does not answer as an error, and goes on', async () => {
    await production_traffic()
    const records = await readCaptures(path)
    const url = target.url
    await target.close()
    const summary = await replay(records.slice(0, 2), { url, secret: local })
    expect(summary.statuses).toEqual({ error: 2 })
    // Not "fetch failed" alone: why it failed.
    expect(summary.results[0]?.error).toMatch(/^fetch failed: \w+/)
  })
})

describe('mergePatch', () => {
  it('merges objects, removes with null, replaces anything else', () => {
    const body = JSON.stringify({ a: 1, data: { keep: true, drop: 1 }, list: [1, 2] })
    expect(JSON.parse(mergePatch(body, { a: 2, data: { drop: null, added: 'x' }, list: [3] }))).toEqual({
      a: 2,
      data: { keep: true, added: 'x' },
      list: [3],
    })
  })
})
