// Capture in one example, replay into the next: each example runs as a process with capture on
// (RINGHOOK_CAPTURE_FILE, as its README says), gets a few signed deliveries and is stopped, which
// writes the file. `ringhook replay` then sends that file to the next example of the ring, signed
// with the target's own secret: each delivery must be answered as it was at the source, and sent a
// second time, what was handled is answered as a duplicate.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ReplaySummary, readCaptures } from '@ringhook/capture'
import { signWebhook } from '@ringhook/core/signature'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, ROOT } from '../runtimes/built.js'
import { cleanUp, listeningPort, type Started, startExample, stop } from './harness.js'

assertBuilt('core', 'node', 'express', 'hono', 'aws-lambda', 'h3', 'fastify', 'koa', 'nestjs', 'otel', 'postgres')
assertBuilt('bullmq', 'capture', 'cli')

const PRODUCTION = 'whsec_replay_production'
const DESK = 'whsec_replay_desk'

// Postgres on 127.0.0.1:5432 and Redis on 127.0.0.1:6379, as the rest of the suite.
const ring = [
  { name: 'node-http', script: 'start' },
  { name: 'express', script: 'start' },
  { name: 'hono', script: 'start' },
  { name: 'aws-lambda', script: 'start' },
  { name: 'h3', script: 'start' },
  { name: 'fastify', script: 'start' },
  { name: 'koa', script: 'start' },
  { name: 'nestjs', script: 'start' },
  { name: 'otel', script: 'start' },
  { name: 'postgres', script: 'start' },
  { name: 'queue', script: 'start:web' },
]
type Example = (typeof ring)[number]

const QUEUE = `examples-replay-${process.pid}`

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringhook-examples-replay-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Runs an example on a free port for the time of `use`, then stops it (which writes its capture). */
async function running<T>(example: Example, env: Record<string, string>, use: (url: string) => Promise<T>) {
  const started: Started = startExample(example.name, { PORT: '0', RINGHOOK_QUEUE: QUEUE, ...env }, example.script)
  try {
    const result = await use(`http://127.0.0.1:${await listeningPort(started)}/webhooks`)
    expect(await stop(started)).toBe(0)
    return result
  } finally {
    cleanUp(started)
  }
}

/** What a source gets: a gesture and its retry, an answer to a notification, a bad payload, a forgery. */
async function traffic(tag: string) {
  const at = new Date().toISOString()
  const base = { user_app_id: `replay-${tag}-${process.pid}`, app_id: 'app_demo', timestamp: at }
  const gesture = JSON.stringify({ event: 'gesture', gesture_type: 'double_tap', ...base, data: {} })
  const responded = JSON.stringify({
    event: 'notification.responded',
    ...base,
    data: { event_id: `evt-${tag}-${process.pid}`, response: 'yes' },
  })
  const invalid = JSON.stringify({ event: 'gesture', ...base, data: {} }) // no gesture_type
  const signed = async (body: string) => ({ body, headers: (await signWebhook({ secret: PRODUCTION, body })).headers })
  // The body changed after it was signed: its signature does not match.
  const forged = { ...(await signed(gesture)), body: gesture.replace('double_tap', 'tap') }
  return [
    await signed(gesture),
    await signed(gesture), // the service's retry
    await signed(responded),
    await signed(invalid),
    forged,
  ]
}

/** Runs `ringhook replay <file> --url <url> --json` (the built CLI); its summary and exit code. */
async function ringhookReplay(file: string, url: string): Promise<{ code: number | null; summary: ReplaySummary }> {
  const bin = join(ROOT, 'packages', 'cli', 'bin', 'ringhook.mjs')
  const child = spawn(process.execPath, [bin, 'replay', file, '--url', url, '--secret', DESK, '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  const [code] = (await once(child, 'close')) as [number | null]
  return { code, summary: JSON.parse(stdout) as ReplaySummary }
}

/**
 * Posts on a connection of its own, closed after the answer: a kept-alive one would hold the
 * example's shutdown for its keep-alive timeout.
 */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** GETs a JSON answer on a connection of its own, as `post` does. */
function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve(JSON.parse(text)))
    })
    req.on('error', reject)
    req.end()
  })
}

const answersOf = (summary: ReplaySummary) =>
  summary.results.map((result) => ({ status: result.answer?.status, body: JSON.parse(result.answer?.body ?? 'null') }))

const vibe = (message: string) => ({ success: true, vibe: { sequence: [{ type: 'tap' }, { type: 'pulse' }], message } })

// Two processes per example (the source, then the next one as the target), at most five examples at once.
describe.concurrent('examples: captured in one, replayed into the next', { timeout: 75_000 }, () => {
  it.each(ring.map((source, index) => ({ source, target: ring[(index + 1) % ring.length] as Example })))(
    '$source.name → $target.name',
    async ({ source, target }) => {
      const file = join(dir, `${source.name}.jsonl`)
      const originals = await running(
        source,
        { RING_WEBHOOK_SECRET: PRODUCTION, RINGHOOK_CAPTURE_FILE: file },
        async (url) => {
          const answers = []
          for (const { body, headers } of await traffic(source.name)) answers.push(await post(url, headers, body))
          // Its health route shows what capture did: every delivery taken, none lost. (The Lambda
          // has none: its local server answers the webhook route only.)
          if (source.name !== 'aws-lambda')
            expect(await getJson(url.replace(/\/webhooks$/, '/health'))).toMatchObject({
              status: 'ok',
              capture: { captured: 5, dropped: 0, limited: 0, failed: 0, stalled: 0 },
            })
          return answers
        },
      )
      expect(originals.map((answer) => answer.status)).toEqual([200, 200, 200, 400, 401])
      expect(originals[0]?.body).toEqual(vibe('Got your double_tap'))

      // Every delivery was captured when the example stopped, the forgery with its signature redacted.
      const records = await readCaptures(file)
      expect(records.map((record) => [record.outcome, record.code ?? null])).toEqual([
        ['accepted', null],
        ['duplicate', null],
        ['accepted', null],
        ['refused', 'invalid_payload'],
        ['refused', 'unauthorized'],
      ])
      expect(records.map((record) => record.answer.status)).toEqual(originals.map((answer) => answer.status))
      expect(records[4]?.request.headers['x-service-signature']).toBe('[redacted]')

      const [first, second] = await running(target, { RING_WEBHOOK_SECRET: DESK }, async (url) => [
        await ringhookReplay(file, url),
        await ringhookReplay(file, url),
      ])
      // Answered as at the source, the retry as a duplicate. The forgery is not sent: it was never
      // authenticated, and replay signs nothing a stranger wrote unless asked by name.
      expect(answersOf(first.summary).slice(0, 4)).toEqual(originals.slice(0, 4))
      expect(first.summary.results[4]).toMatchObject({ unauthenticated: true, skipped: expect.any(String) })
      expect(first.summary.results[4]?.answer).toBeUndefined()
      expect(first.summary.results.map((result) => result.answer?.duplicate)).toEqual([
        false,
        true,
        false,
        false,
        undefined,
      ])
      expect(first.code).toBe(1) // one answer was not 2xx: the invalid payload's 400
      // The same file again: everything handled is a duplicate, with the answer it had.
      expect(answersOf(second.summary)).toEqual(answersOf(first.summary))
      expect(second.summary.results.map((result) => result.answer?.duplicate)).toEqual([
        true,
        true,
        true,
        false,
        undefined,
      ])
    },
  )
})
