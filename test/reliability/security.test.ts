// Security hygiene: across a run of good and bad deliveries, neither the secrets nor any signature
// (sent or expected) reaches the logs (pino, and core's console logger) or the HTTP answers; and
// the limits a public endpoint needs are on by default and cannot be switched off by accident.
import { createServer } from 'node:http'
import { Writable } from 'node:stream'
import { createReceiver, type Logger, type ReceiverOptions, RinghookConfigError, vibe } from '@ringhook/core'
import { consoleLogger } from '@ringhook/core/internal'
import { hmacEngine, signWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import { pino } from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { listen, type Mounted } from '../conformance/adapters.js'
import { type Delivery, gesture, lifecycle, NOW_MS, NOW_S, post, responded } from '../support/events.js'
import { observe } from './observations.js'

const SECRETS = ['whsec_Current_5ecret_value', 'whsec_Previous_5ecret_value']
const UNKNOWN_SECRET = 'whsec_attacker_guess_value'

const sign = async (payload: Record<string, unknown> | string, secret: string, timestamp = NOW_S) => {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const { headers } = await signWebhook({ secret, body, timestamp })
  return { body, headers } satisfies Delivery
}

/** Good and bad deliveries; returns every signature sent, plus what each active secret would have signed. */
async function deliveries() {
  const [current, previous] = SECRETS as [string, string]
  const good = gesture()
  const list: Delivery[] = [
    await sign(good, current),
    await sign(good, current, NOW_S + 1), // a retry: replayed answer
    await sign(lifecycle('app.installed'), previous), // an old secret during rotation
    await sign(gesture(), UNKNOWN_SECRET), // wrong secret
    await sign(gesture(), current, NOW_S - 400), // stale
    await sign(gesture(), current, NOW_S + 400), // from the future
    await sign('{"event": "gesture",', current), // invalid JSON
    await sign({ ...responded('evt_1'), data: { event_id: 'evt_1', response: 'maybe' } }, current), // bad payload
    await sign(lifecycle('app.uninstalled'), current), // its handler throws
    await sign(gesture({ gesture_type: 'bad_reply' }), current), // an invalid vibe reply
  ]
  const tampered = await sign(gesture(), current)
  list.push({ ...tampered, body: tampered.body.replace('double_tap', 'triple_tap') })
  const duplicated = await sign(gesture(), current)
  const signature = duplicated.headers['x-service-signature'] as string
  list.push({ ...duplicated, headers: { ...duplicated.headers, 'x-service-signature': `${signature}, ${signature}` } })
  list.push({ ...(await sign(gesture(), current)), method: 'GET' })
  list.push({ ...(await sign(gesture(), current)), headers: { 'content-type': 'application/json' } })

  // Everything that would give a signature away: what was sent, and what the receiver computes.
  const secretsOfSignatures = new Set<string>()
  for (const delivery of list) {
    const sent = delivery.headers['x-service-signature']
    if (sent) for (const one of sent.split(', ')) secretsOfSignatures.add(one.slice('sha256='.length))
    const timestamp = delivery.headers['x-service-timestamp'] ?? String(NOW_S)
    for (const secret of SECRETS) {
      const digest = await hmacEngine().digest(secret, timestamp, new TextEncoder().encode(delivery.body))
      secretsOfSignatures.add(Buffer.from(digest).toString('hex'))
      secretsOfSignatures.add(Buffer.from(digest).toString('base64'))
    }
  }
  return { list, signatures: [...secretsOfSignatures] }
}

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.close()
  mounted = undefined
  vi.restoreAllMocks()
})

/** Runs every delivery through a node:http server whose receiver logs with `logger`. */
async function runAll(logger: Logger, extra: Partial<ReceiverOptions> = {}) {
  const receiver = createReceiver({ secret: SECRETS, now: () => NOW_MS, logger, ...extra })
  receiver.on('gesture', (event, { logger: log }) => {
    log.info({ gesture: event.gesture_type }, 'gesture received')
    // A plain object: the builder would refuse four steps before the receiver sees them.
    return event.gesture_type === 'bad_reply' ? { sequence: Array(4).fill({ type: 'tap' as const }) } : vibe('tap')
  })
  receiver.on('app.uninstalled', () => {
    throw new Error('cleanup failed')
  })
  receiver.onError(() => {
    throw new Error('the error handler fails too')
  })
  mounted = await listen(createServer(ringhook(receiver)))
  const { list, signatures } = await deliveries()
  const answers: string[] = []
  const statuses: number[] = []
  for (const delivery of list) {
    const response = await post(mounted.url, delivery)
    statuses.push(response.status)
    answers.push(JSON.stringify(response.body))
  }
  return { signatures, answers: answers.join('\n'), statuses }
}

function expectNothingSecret(text: string, signatures: readonly string[]) {
  for (const secret of [...SECRETS, UNKNOWN_SECRET]) expect(text).not.toContain(secret)
  // Not even a fragment: 16 hex digits of a signature would already be a leak worth fixing.
  for (const signature of signatures) expect(text).not.toContain(signature.slice(0, 16))
}

describe('secrets and signatures never reach logs or answers', () => {
  it('with pino at trace level', async ({ task }) => {
    let logged = ''
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        logged += chunk
        callback()
      },
    })
    const logger = pino({ level: 'trace' }, stream)
    const { signatures, answers, statuses } = await runAll(logger)
    expect(statuses).toEqual([200, 200, 200, 401, 401, 401, 400, 400, 500, 500, 401, 401, 405, 401])
    // The run really was logged: rejections, failures, and the handler's own line.
    expect(logged).toContain('signature_mismatch')
    expect(logged).toContain('timestamp_too_old')
    expect(logged).toContain('cleanup failed')
    expect(logged).toContain('gesture received')
    expectNothingSecret(logged, signatures)
    expectNothingSecret(answers, signatures)
    observe(
      {
        table: 'security',
        row: `Logs (pino, level trace) and HTTP answers over ${statuses.length} good and bad deliveries`,
        column: 'result',
        value: `${logged.split('\n').length - 1} log lines; no secret, no sent or expected signature (hex or base64, even 16 digits of one)`,
      },
      task,
    )
  })

  it("with core's console logger", async ({ task }) => {
    const lines: string[] = []
    const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '))
    for (const level of ['debug', 'info', 'log', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation(keep)
    }
    const { signatures, statuses } = await runAll(consoleLogger())
    expect(statuses).toHaveLength(14)
    const logged = lines.join('\n')
    expect(logged).toContain('[ringhook]')
    expect(logged).toContain('signature_mismatch')
    expectNothingSecret(logged, signatures)
    observe(
      {
        table: 'security',
        row: "Logs with core's default console logger, same run",
        column: 'result',
        value: `${lines.length} lines; no secret, no signature`,
      },
      task,
    )
  })

  it('names a whitespace problem in the secret without printing the secret', async () => {
    let logged = ''
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        logged += chunk
        callback()
      },
    })
    const spaced = ' whsec_spaced_5ecret \n'
    const receiver = createReceiver({ secret: spaced, now: () => NOW_MS, logger: pino({ level: 'trace' }, stream) })
    const { body, headers } = await sign(gesture(), spaced.trim())
    const response = await receiver.handle({ method: 'POST', headers, rawBody: body })
    expect(response.status).toBe(401)
    expect(logged).toMatch(/whitespace/)
    expect(logged).not.toContain('whsec_spaced_5ecret')
  })
})

describe('safe defaults', () => {
  it('limits body size, body time, handler time and clock skew out of the box', ({ task }) => {
    const { options } = createReceiver({ secret: 'whsec_defaults' })
    expect(options).toMatchObject({
      maxBodyBytes: 64 * 1024,
      bodyTimeoutMs: 10_000,
      deadlineMs: 10_000,
      toleranceSeconds: 300,
      requireJsonContentType: true,
      onStoreError: 'retry',
      onDeadline: 'acknowledge',
      inFlightTtlMs: 15_000,
      completedTtlMs: 15 * 60_000,
    })
    // Node's crypto: HMAC and crypto.timingSafeEqual for the comparison.
    expect(hmacEngine().name).toBe('node')
    observe(
      {
        table: 'security',
        row: 'Defaults',
        column: 'result',
        value:
          'body ≤ 64 KiB, whole body within 10 s, answer within 10 s (service: 30 s), timestamp ±300 s, JSON content type required, store errors → 503',
      },
      task,
    )
  })

  it.each([
    ['an infinite body limit', { maxBodyBytes: Number.POSITIVE_INFINITY }],
    ['a zero body limit', { maxBodyBytes: 0 }],
    ['a NaN body timeout', { bodyTimeoutMs: Number.NaN }],
    ['a deadline past the 30 s the service waits', { deadlineMs: 30_000 }],
    ['a negative tolerance', { toleranceSeconds: -1 }],
    ['an infinite tolerance', { toleranceSeconds: Number.POSITIVE_INFINITY }],
    ['an empty secret', { secret: '' }],
    ['an empty secret list', { secret: [] }],
  ])('refuses %s instead of switching a check off', (_name, override) => {
    expect(() => createReceiver({ secret: 'whsec_defaults', ...override })).toThrow(RinghookConfigError)
  })

  it('reports configuration errors as RinghookConfigError', () => {
    expect(() => createReceiver({ secret: 'x', deadlineMs: 60_000 })).toThrow(RinghookConfigError)
  })
})
