// Capture under load: many deliveries at once through a real node:http receiver and real HTTP
// clients. What is attacked: that every chosen delivery is recorded (none lost, none twice) up to the
// byte budget, that what passes the budget is counted, and that a sink which throws or stalls changes
// no answer. And a stranger without the secret flooding a receiver that captures every outcome, as
// the examples do (500 bodies of 64 KB of control bytes with a wrong signature, into the file
// sink with its defaults): the genuine deliveries' records survive, and what the flood makes capture
// write stays small.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '@ringhook/core'
import { type CapturedDelivery, type CaptureSink, createCapture } from '@ringhook/core/capture'
import { signWebhook } from '@ringhook/core/signature'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Running, startReceiver } from '../test/servers.js'
import { fileSink } from './file-sink.js'
import { readCaptures } from './read.js'

const secret = 'whsec_load'
/** Requests in flight at once, each client sending its share one after another on a kept-alive connection. */
const CLIENTS = 32

type Kind = 'accepted' | 'duplicate' | 'refused' | 'failed'

/** The n-th request of a run: mostly first deliveries, with duplicates, forgeries and failing handlers among them. */
const kindOf = (n: number): Kind =>
  n % 20 === 19 ? 'duplicate' : n % 25 === 7 ? 'refused' : n % 40 === 13 ? 'failed' : 'accepted'

const bodyOf = (n: number, kind: Kind): string =>
  kind === 'failed'
    ? JSON.stringify({
        event: 'gesture',
        gesture_type: 'tap',
        user_app_id: `u_${n}`,
        external_user_id: `person_${n}`,
        app_id: 'app_load',
        timestamp: '2027-01-15T08:00:00.000Z',
        data: { fail: true },
      })
    : JSON.stringify({
        event: 'notification.responded',
        user_app_id: `u_${n}`,
        external_user_id: `person_${n}`,
        app_id: 'app_load',
        timestamp: '2027-01-15T08:00:01.000Z',
        // A duplicate repeats the delivery before it.
        data: { event_id: `evt_${kind === 'duplicate' ? n - 1 : n}`, response: 'emoji:👍' },
      })

interface Sent {
  n: number
  kind: Kind
  body: string
  status: number
  answer: string
}

/** Sends `count` deliveries from CLIENTS clients at once; resolves with every answer, by request. */
async function load(url: string, count: number): Promise<Sent[]> {
  const sent: Sent[] = []
  const answered: Promise<void>[] = []
  const send = async (n: number) => {
    const kind = kindOf(n)
    const body = bodyOf(n, kind)
    const { headers } = await signWebhook({ secret: kind === 'refused' ? 'whsec_forged' : secret, body })
    // A duplicate goes out once its original was answered, as the service's retries do.
    if (kind === 'duplicate') await answered[n - 1]
    const response = await fetch(url, { method: 'POST', headers, body })
    sent.push({ n, kind, body, status: response.status, answer: await response.text() })
  }
  let next = 0
  const client = async () => {
    // Each request is registered as it is taken, so that its duplicate can wait for its answer.
    for (let n = next++; n < count; n = next++) {
      answered[n] = send(n)
      await answered[n]
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client))
  return sent.sort((a, b) => a.n - b.n)
}

// The limit of 10 records a second is what is tested, not the size of the flood: 500 forgeries take
// seconds on two cores, hundreds more than the limit lets through.
const FORGERIES = 500
const BODY = 64_000

const STATUS: Record<Kind, number> = { accepted: 200, duplicate: 200, refused: 401, failed: 500 }

// Forgeries are recorded at most 10 a second by default (the flood below): here every one is let
// through, so that the path of each kind of delivery is attacked under load.
const EVERY_FORGERY = { perSecond: 100_000 }

const genuineBody = (n: number) =>
  JSON.stringify({
    event: 'notification.responded',
    user_app_id: `u_${n}`,
    app_id: 'app_flood',
    timestamp: '2027-01-15T08:00:01.000Z',
    data: { event_id: `evt_flood_${n}`, response: 'yes' },
  })

async function sendGenuine(url: string, n: number): Promise<number> {
  const body = genuineBody(n)
  const { headers } = await signWebhook({ secret, body })
  return (await fetch(url, { method: 'POST', headers, body })).status
}

/** Sends FORGERIES bodies of control bytes signed with another secret, CLIENTS at a time; their statuses. */
async function flood(url: string): Promise<number[]> {
  const { headers } = await signWebhook({ secret: 'whsec_stranger', body: 'anything' })
  const statuses: number[] = []
  let next = 0
  const client = async () => {
    for (let n = next++; n < FORGERIES; n = next++) {
      const body = Buffer.alloc(BODY, n % 32)
      body.writeUInt32BE(n) // each one different
      statuses.push((await fetch(url, { method: 'POST', headers, body })).status)
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client))
  return statuses
}

let dir = ''
let running: Running | undefined
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-capture-load-'))
})
afterEach(async () => {
  await running?.close()
  running = undefined
  await rm(dir, { recursive: true, force: true })
})

describe('capture under load', () => {
  // 1,000 deliveries, 32 at a time, cover every kind many times over and rotate the file a dozen times:
  // what is tested is that none is lost or doubled while requests and rotations overlap, not the count.
  it('records every one of 1,000 concurrent deliveries to the file, once, with its answer', async () => {
    const path = join(dir, 'deliveries.jsonl')
    // Small files, so that rotation happens under the load too.
    const capture = createCapture({
      sink: fileSink({ path, maxFileBytes: 64 * 1024, maxFiles: 100 }),
      unauthenticated: EVERY_FORGERY,
      // A write is never given up on here (a stalled sink is tested below, with a short limit): a busy
      // machine can hold a batch's write past the default 10 s, and that would count as a stall.
      timeoutMs: 600_000,
    })
    running = await startReceiver({ secret, capture })
    const sent = await load(running.url, 1000)
    expect(sent.map((s) => s.status)).toEqual(sent.map((s) => STATUS[s.kind]))
    await capture.close()

    const records = await readCaptures(path)
    expect(records).toHaveLength(sent.length)
    const seen = (record: CapturedDelivery) => {
      const body = JSON.parse(record.request.body)
      return `${body.user_app_id} ${record.outcome} ${record.answer.status} ${record.answer.body}`
    }
    const expected = (s: Sent) => `u_${s.n} ${s.kind} ${s.status} ${s.answer}`
    expect(records.map(seen).sort()).toEqual(sent.map(expected).sort())
    // Personal values hashed in every record, under load as in one.
    for (const record of records) {
      expect(JSON.parse(record.request.body).external_user_id).toMatch(/^sha256:[0-9a-f]{64}$/)
      expect(record.request.body).not.toContain('person_')
    }
    expect(capture.stats()).toEqual({
      captured: 1000,
      written: 1000,
      skipped: 0,
      dropped: 0,
      limited: 0,
      failed: 0,
      stalled: 0,
      pending: 0,
    })
  }, 60_000)

  it('keeps what fits its byte budget while the sink is held, counts the rest, and loses none of what it kept', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const stored: CapturedDelivery[] = []
    const sink: CaptureSink = {
      write: async (records) => {
        await held
        stored.push(...records)
      },
    }
    const maxBytes = 64 * 1024
    const capture = createCapture({ sink, maxBytes, timeoutMs: 60_000, unauthenticated: EVERY_FORGERY })
    running = await startReceiver({ secret, capture })
    // 400 deliveries of ~1 KB each are six times the budget: enough to fill it and count the rest.
    const sent = await load(running.url, 400)
    expect(sent.map((s) => s.status)).toEqual(sent.map((s) => STATUS[s.kind]))

    const whileHeld = capture.stats()
    expect(whileHeld.dropped).toBeGreaterThan(0)
    expect(whileHeld.captured).toBeGreaterThan(0)
    expect(whileHeld.captured + whileHeld.dropped + whileHeld.limited).toBe(400)
    // Each record counts its body, its answer and 512 bytes against the budget.
    expect(whileHeld.captured * 512).toBeLessThanOrEqual(maxBytes)
    expect(whileHeld.pending).toBe(whileHeld.captured)

    release()
    await capture.flush()
    expect(capture.stats()).toMatchObject({ written: whileHeld.captured, failed: 0, stalled: 0, pending: 0 })
    // Each kept record is one of the deliveries sent, with the answer its client read.
    const answers = new Map(sent.map((s) => [`u_${s.n}`, `${s.kind} ${s.status} ${s.answer}`]))
    const kept = stored.map((r) => [
      JSON.parse(r.request.body).user_app_id,
      `${r.outcome} ${r.answer.status} ${r.answer.body}`,
    ])
    expect(new Set(kept.map(([user]) => user)).size).toBe(whileHeld.captured)
    for (const [user, answer] of kept) expect(answer).toBe(answers.get(user))
  }, 60_000)

  const broken: Record<string, () => CaptureSink> = {
    throws: () => ({
      write: () => {
        throw new Error('disk on fire')
      },
    }),
    stalls: () => ({ write: () => new Promise<void>(() => {}) }),
  }

  // 400 deliveries (every kind, 32 at a time) against a sink that fails each batch: the rule is the
  // same answers and every record counted lost, whatever the count.
  it.each(Object.keys(broken))(
    'answers 400 concurrent deliveries as without capture when the sink %s',
    async (kind) => {
      const plain = await startReceiver({ secret })
      const withoutCapture = await load(plain.url, 400).finally(() => plain.close())

      const warned: string[] = []
      const logger = { ...silentLogger, warn: (_fields: object, message?: string) => void warned.push(message ?? '') }
      const capture = createCapture({
        sink: (broken[kind] as () => CaptureSink)(),
        timeoutMs: 50,
        logger,
        unauthenticated: EVERY_FORGERY,
      })
      running = await startReceiver({ secret, capture })
      const withBrokenSink = await load(running.url, 400)
      const answers = (sent: Sent[]) => sent.map((s) => `${s.n} ${s.status} ${s.answer}`)
      expect(answers(withBrokenSink)).toEqual(answers(withoutCapture))

      await capture.flush()
      const stats = capture.stats()
      expect(stats).toMatchObject({ captured: 400, written: 0, pending: 0 })
      expect(kind === 'stalls' ? stats.stalled : stats.failed).toBe(400)
      expect(warned).toHaveLength(1)
    },
    60_000,
  )
})

describe('a forged flood', () => {
  it('keeps every genuine record, and writes a bounded few kilobytes a second of forgeries', async () => {
    const path = join(dir, 'deliveries.jsonl')
    const capture = createCapture({ sink: fileSink({ path }) })
    running = await startReceiver({ secret, capture })
    expect(await sendGenuine(running.url, 1)).toBe(200)
    const started = performance.now()
    const statuses = await flood(running.url)
    const seconds = (performance.now() - started) / 1000
    expect(await sendGenuine(running.url, 2)).toBe(200)
    expect(statuses.filter((status) => status === 401)).toHaveLength(FORGERIES)
    await capture.close()

    const records = await readCaptures(path)
    expect(records.filter((record) => record.authentic).map((record) => record.outcome)).toEqual([
      'accepted',
      'accepted',
    ])
    const forged = records.filter((record) => record.authentic === false)
    // At most 10 a second were recorded (the seconds begun while the flood ran); the rest counted.
    expect(forged.length).toBeGreaterThan(0)
    expect(forged.length).toBeLessThanOrEqual(10 * (Math.ceil(seconds) + 1))
    expect(capture.stats()).toMatchObject({ limited: FORGERIES - forged.length, failed: 0, dropped: 0 })
    for (const record of forged) {
      expect(record.request).toMatchObject({ bytes: BODY, cut: 'prefix', encoding: 'base64' })
      expect(Buffer.from(record.request.body, 'base64')).toHaveLength(1024)
    }
    // 32 MB received; what was written is under 3 KiB a forgery recorded.
    let written = 0
    for (const name of await readdir(dir)) written += (await stat(join(dir, name))).size
    expect(written).toBeLessThan(3072 * (forged.length + 2))
  }, 120_000)
})
