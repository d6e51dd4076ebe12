// Capture under load: many concurrent real HTTP deliveries with every one captured. Nothing chosen is
// lost up to the byte budget, and a sink that throws or stalls changes no answer.
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSink, readCaptures } from '@ringhook/capture'
import { createReceiver, type ReceiverOptions, silentLogger, vibe } from '@ringhook/core'
import { type CaptureSink, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const secret = 'whsec_capture_load'
// 400 deliveries, 50 at a time, hold every kind (first deliveries, forgeries, retries) and rotate the
// file several times: the rule (none lost, none doubled, no answer changed) is tested, not the count.
const DELIVERIES = 400
const CONCURRENCY = 50
// Forgeries are recorded at most 10 a second by default (packages/capture's flood test): here every
// one is let through, so that the quarter of the load that is forged is recorded too.
const EVERY_FORGERY = { perSecond: 100_000 }

async function serve(options: Partial<ReceiverOptions>) {
  const receiver = createReceiver({ secret, logger: silentLogger, ...options })
  receiver.on('gesture', (event) => vibe('tap').message(`Got ${event.user_app_id}`))
  const server: Server = createServer(ringhook(receiver))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

type Request = { body: string; headers: Record<string, string> }

/**
 * Signed requests, made before the load starts: a quarter of them forged, and the last tenth retries
 * of earlier ones, sent once those were answered (a retry racing its original would get 409 or 200
 * by timing alone).
 */
async function requests(count: number): Promise<Request[][]> {
  const at = new Date().toISOString()
  const out: Request[] = []
  const firsts = count - count / 10
  for (let n = 0; n < count; n++) {
    const user = n < firsts ? `u-${n}` : `u-${n - firsts}`
    const body = JSON.stringify({
      event: 'gesture',
      gesture_type: 'tap',
      user_app_id: user,
      app_id: 'app_load',
      timestamp: at,
      data: {},
    })
    const { headers } = await signWebhook({ secret: n % 4 === 3 ? 'whsec_forged' : secret, body })
    out.push({ body, headers })
  }
  return [out.slice(0, firsts), out.slice(firsts)]
}

/** Sends each phase's requests, `CONCURRENCY` at a time, after the phase before; the answers in order. */
async function load(url: string, phases: Request[][]): Promise<string[]> {
  const answers: string[] = []
  for (const phase of phases) answers.push(...(await send(url, phase)))
  return answers
}

async function send(url: string, all: Request[]): Promise<string[]> {
  const answers: string[] = new Array(all.length)
  let next = 0
  const worker = async () => {
    while (next < all.length) {
      const index = next++
      const { body, headers } = all[index] as Request
      const response = await fetch(url, { method: 'POST', headers, body })
      answers[index] =
        `${response.status} ${response.headers.get('x-ringhook-duplicate') ?? '-'} ${await response.text()}`
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return answers
}

let traffic: Request[][]
let sent: Request[]
let answersOff: string[]
let dir = ''
beforeAll(async () => {
  traffic = await requests(DELIVERIES)
  sent = traffic.flat()
  const plain = await serve({})
  answersOff = await load(plain.url, traffic).finally(() => plain.close())
  dir = await mkdtemp(join(tmpdir(), 'ringhook-capture-load-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('capture under load', { timeout: 60_000 }, () => {
  it(`records every one of ${DELIVERIES} concurrent HTTP deliveries to a rotating file, none lost`, async () => {
    const path = join(dir, 'all.jsonl')
    // Small files, so that the load also rotates them: about 50 records a file, all kept.
    const capture = createCapture({
      sink: fileSink({ path, maxFileBytes: 50_000, maxFiles: 50 }),
      logger: silentLogger,
      unauthenticated: EVERY_FORGERY,
      // Never given up on (the stalled sink is the tests below): a busy machine can hold a write past
      // the default 10 s, which would count its batch as stalled.
      timeoutMs: 600_000,
    })
    const server = await serve({ capture })
    try {
      const answers = await load(server.url, traffic)
      await capture.flush()
      expect(capture.stats()).toMatchObject({
        captured: DELIVERIES,
        written: DELIVERIES,
        dropped: 0,
        failed: 0,
        stalled: 0,
        pending: 0,
      })
      const records = await readCaptures(path)
      expect(records).toHaveLength(DELIVERIES)
      // Each request's body and answer, exactly once.
      const recorded = records.map((r) => `${r.request.body}|${r.answer.status}`).sort()
      expect(recorded).toEqual(sent.map((t, i) => `${t.body}|${(answers[i] as string).split(' ')[0]}`).sort())
      expect(new Set(records.map((r) => r.outcome))).toEqual(new Set(['accepted', 'duplicate', 'refused']))
    } finally {
      await server.close()
      await capture.close()
    }
  })

  it('records up to its byte budget while the sink is stalled, and counts the rest', async () => {
    let stalled = 0
    const sink: CaptureSink = {
      write: () => {
        stalled++
        return new Promise<void>(() => {})
      },
    }
    const maxBytes = 64 * 1024
    const capture = createCapture({
      sink,
      maxBytes,
      timeoutMs: 60_000,
      logger: silentLogger,
      unauthenticated: EVERY_FORGERY,
    })
    const server = await serve({ capture })
    try {
      const answers = await load(server.url, traffic)
      const { captured, dropped, limited, skipped, pending } = capture.stats()
      // The rest counted: over the budget, or past the forgeries' share of it (an eighth).
      expect(captured + dropped + limited + skipped).toBe(DELIVERIES)
      expect(dropped).toBeGreaterThan(0)
      // What was captured is all still held (one batch in the sink's hands, the rest queued), within the budget.
      expect(pending).toBe(captured)
      expect(captured).toBeLessThanOrEqual(maxBytes / 512)
      expect(stalled).toBe(1)
      expect(answers).toEqual(answersOff)
    } finally {
      await server.close()
    }
  })

  it.each([
    [
      'throws',
      (): CaptureSink => ({
        write: () => {
          throw new Error('disk full')
        },
      }),
    ],
    ['rejects', (): CaptureSink => ({ write: () => Promise.reject(new Error('connection reset')) })],
    ['stalls', (): CaptureSink => ({ write: () => new Promise<void>(() => {}) })],
  ])('a sink that %s changes no answer: the same as with capture off', async (_kind, broken) => {
    const capture = createCapture({ sink: broken(), timeoutMs: 50, logger: silentLogger })
    const withCapture = await serve({ capture })
    const answersOn = await load(withCapture.url, traffic).finally(() => withCapture.close())
    expect(answersOn).toEqual(answersOff)
    await capture.flush()
    expect(capture.stats().written).toBe(0)
  })
})
