// The Next.js example with capture on (RINGHOOK_CAPTURE_FILE, as its README says), in both
// directions: what its route captured is replayed over HTTP into the node:http example, and what the
// node:http example captured is replayed into the route. Each delivery is answered at the target as
// it was at the source; a second replay of what was handled is answered as a duplicate.
// Its own file: the route's receiver is created once per module and closed here (which flushes).
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink, type ReplaySummary, readCaptures, replay } from '@ringhook/capture'
import { silentLogger } from '@ringhook/core'
import { createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { NextRequest } from 'next/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as route from '../../examples/nextjs/app/webhooks/route'
import { createWebhookReceiver, webhookReceiver } from '../../examples/nextjs/lib/receiver'
import { createApp } from '../../examples/node-http/src/app'

const PRODUCTION = 'whsec_next_production'
const DESK = 'whsec_next_desk'
let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-next-capture-'))
  // The route creates its receiver on the first request, from the environment.
  process.env.RING_WEBHOOK_SECRET = PRODUCTION
  process.env.RINGHOOK_CAPTURE_FILE = join(dir, 'next.jsonl')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A gesture and its retry, an answer to a notification, a payload with no gesture type. */
async function traffic(tag: string, secret: string) {
  const base = { user_app_id: `next-${tag}-${process.pid}`, app_id: 'app_demo', timestamp: new Date().toISOString() }
  const bodies = [
    JSON.stringify({ event: 'gesture', gesture_type: 'double_tap', ...base, data: {} }),
    JSON.stringify({ event: 'gesture', gesture_type: 'double_tap', ...base, data: {} }), // the retry
    JSON.stringify({ event: 'notification.responded', ...base, data: { event_id: `evt-${tag}`, response: 'yes' } }),
    JSON.stringify({ event: 'gesture', ...base, data: {} }),
  ]
  return Promise.all(bodies.map(async (body) => ({ body, headers: (await signWebhook({ secret, body })).headers })))
}

const answers = async (sent: Array<Response | { status: number; body: string }>) =>
  Promise.all(
    sent.map(async (answer) => ({
      status: answer.status,
      body: JSON.parse(answer instanceof Response ? await answer.text() : answer.body) as unknown,
    })),
  )
const replayed = (summary: ReplaySummary) =>
  answers(
    summary.results.map((result) => ({ status: result.answer?.status ?? 0, body: result.answer?.body ?? 'null' })),
  )
const duplicates = (summary: ReplaySummary) => summary.results.map((result) => result.answer?.duplicate)

const vibe = { success: true, vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message: 'Got your double_tap' } }

describe('Next.js example: captured deliveries replay to and from another example', () => {
  it('captured in the route, replayed into the node:http example', async () => {
    const sent = []
    for (const { body, headers } of await traffic('from-next', PRODUCTION))
      sent.push(await route.POST(new NextRequest('http://localhost:3000/webhooks', { method: 'POST', headers, body })))
    const originals = await answers(sent)
    expect(originals.map((answer) => answer.status)).toEqual([200, 200, 200, 400])
    expect(originals[0]?.body).toEqual(vibe)
    // Closing the receiver writes what its capture still holds.
    await webhookReceiver().close()
    const records = await readCaptures(process.env.RINGHOOK_CAPTURE_FILE as string)
    expect(records.map((record) => record.outcome)).toEqual(['accepted', 'duplicate', 'accepted', 'refused'])

    const { server } = createApp(DESK, { logger: silentLogger })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
      const first = await replay(records, { url, secret: DESK })
      expect(await replayed(first)).toEqual(originals)
      const again = await replay(records, { url, secret: DESK })
      expect(duplicates(again)).toEqual([true, true, true, false])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("captured in the node:http example, replayed into the route's receiver", async () => {
    const file = join(dir, 'node-http.jsonl')
    const capture = createCapture({ sink: fileSink({ path: file }), logger: silentLogger })
    const { server, receiver } = createApp(PRODUCTION, { logger: silentLogger, capture })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
    const sent = []
    try {
      for (const { body, headers } of await traffic('from-node', PRODUCTION))
        sent.push(await fetch(url, { method: 'POST', headers, body }))
    } finally {
      await receiver.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
    const originals = await answers(sent)
    const records = await readCaptures(file)
    expect(records).toHaveLength(4)

    // The route's receiver was closed by the test above; a receiver made as lib/receiver.ts makes it,
    // with the desk's secret, gets each request as the route hands it over (a NextRequest).
    const desk = createWebhookReceiver(DESK)
    const deskFetch = (async (target: string | URL | Request, init?: RequestInit) =>
      desk.fetch(
        new NextRequest(target as string, init as ConstructorParameters<typeof NextRequest>[1]),
      )) as typeof fetch
    const first = await replay(records, { url: 'http://localhost:3000/webhooks', secret: DESK, fetch: deskFetch })
    expect(await replayed(first)).toEqual(originals)
    const again = await replay(records, { url: 'http://localhost:3000/webhooks', secret: DESK, fetch: deskFetch })
    expect(duplicates(again)).toEqual([true, true, true, false])
  })
})
