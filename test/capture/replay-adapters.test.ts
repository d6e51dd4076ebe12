// Capture on one adapter, replay on another: every adapter of the conformance suite captures real
// HTTP deliveries to a file, and that file is replayed into the next adapter's server, signed with
// that server's own secret. Each delivery must be handled there as it was at the source: the same
// status and body, a duplicate as a duplicate; sent twice, what was handled is a duplicate.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink, readCaptures, replay } from '@ringhook/capture'
import { createReceiver, type Receiver, type ReceiverOptions, silentLogger, vibe, withExtras } from '@ringhook/core'
import { createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adapters } from '../conformance/adapters.js'
import { rawJson } from '../support/adapter-kit.js'

const production = 'whsec_capture_production'
const desk = 'whsec_capture_desk'

/** A receiver answering gestures with a vibe naming them, failing when `data.fail` is set. */
function appReceiver(secret: string, options: Partial<ReceiverOptions>) {
  const handled: string[] = []
  const receiver: Receiver = createReceiver({ secret, logger: silentLogger, ...options })
  receiver.on('gesture', (event) => {
    if (withExtras(event).data.fail) throw new Error('handler broke')
    handled.push(`${event.user_app_id}:${event.gesture_type}`)
    return vibe('tap').message(`Got ${event.gesture_type}`)
  })
  receiver.on('notification.responded', (event) => void handled.push(`answer:${event.data.event_id}`))
  return { receiver, handled }
}

const traffic = (tag: string) => {
  const at = new Date().toISOString()
  const gesture = (user: string, data: Record<string, unknown> = {}) =>
    rawJson({
      event: 'gesture',
      gesture_type: 'swipe_up',
      user_app_id: `${tag}-${user}`,
      app_id: 'app_x',
      timestamp: at,
      data,
    })
  return [
    gesture('a'),
    gesture('a'), // a retry: answered as a duplicate
    gesture('b', { fail: true }),
    rawJson({
      event: 'notification.responded',
      user_app_id: `${tag}-c`,
      app_id: 'app_x',
      timestamp: at,
      data: { event_id: `evt-${tag}`, response: 'yes' },
    }),
  ]
}

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-capture-adapters-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe.each(adapters.map((source, index) => ({ source, target: adapters[(index + 1) % adapters.length] })))(
  'captured on $source.name, replayed on $target.name',
  ({ source, target }) => {
    it('is handled as the original was, then as a duplicate', async () => {
      if (!target) throw new Error('no target adapter')
      const path = join(dir, `${source.name.replace(/\W+/g, '-')}.jsonl`)
      const capture = createCapture({ sink: fileSink({ path }), logger: silentLogger })
      const from = appReceiver(production, { capture })
      const to = appReceiver(desk, {})
      const [sourceServer, targetServer] = await Promise.all([source.mount(from.receiver), target.mount(to.receiver)])
      try {
        const bodies = traffic(source.name.replace(/\W+/g, '-'))
        const originals: { status: number; body: string }[] = []
        for (const body of bodies) {
          const { headers } = await signWebhook({ secret: production, body })
          const response = await fetch(sourceServer.url, { method: 'POST', headers, body })
          originals.push({ status: response.status, body: await response.text() })
        }
        await capture.close()
        expect(originals.map((o) => o.status)).toEqual([200, 200, 500, 200])

        const records = await readCaptures(path)
        // The exact bytes: these bodies are written as no JSON.stringify writes them.
        expect(records.map((r) => r.request.body)).toEqual(bodies)
        expect(records.map((r) => r.outcome)).toEqual(['accepted', 'duplicate', 'failed', 'accepted'])

        const first = await replay(records, { url: targetServer.url, secret: desk })
        expect(first.results.map((r) => ({ status: r.answer?.status, body: r.answer?.body }))).toEqual(originals)
        expect(first.results.map((r) => r.answer?.duplicate)).toEqual([false, true, false, false])
        expect(to.handled).toEqual(from.handled)

        const second = await replay(records, { url: targetServer.url, secret: desk })
        expect(second.results.map((r) => [r.answer?.status, r.answer?.duplicate])).toEqual([
          [200, true],
          [200, true],
          [500, false],
          [200, true],
        ])
        expect(to.handled).toEqual(from.handled)
      } finally {
        await Promise.all([sourceServer.close(), targetServer.close()])
      }
    })
  },
)
