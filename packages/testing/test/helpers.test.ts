import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReceiver, silentLogger, vibe } from '@ringhook/core'
import { EVENT_NAMES, webhookEventSchema } from '@ringhook/core/api'
import { verifyWebhook } from '@ringhook/core/signature'
import { ringhook } from '@ringhook/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkGestureReply, createEvent, events, sendWebhook, signEvent } from '../src/index.js'

const secret = 'whsec_helpers'

describe('signEvent', () => {
  it('signs the serialised payload so core verifies it', async () => {
    const payload = events.gesture({ gesture_type: 'double_tap' })
    const { body, headers, signature, timestamp } = await signEvent({ secret, payload })
    expect(body).toBe(JSON.stringify(payload))
    expect(headers['x-service-signature']).toBe(signature)
    expect(headers['x-service-timestamp']).toBe(timestamp)
    expect(await verifyWebhook({ rawBody: body, signature, timestamp, secret })).toMatchObject({ ok: true })
  })

  it('signs a string payload as given and takes a Date timestamp', async () => {
    const text = '{"event":"app.installed" }'
    const signed = await signEvent({ secret, payload: text, timestamp: new Date(1_700_000_000_500) })
    expect(signed.body).toBe(text)
    expect(signed.timestamp).toBe('1700000000')
  })
})

describe('event factories', () => {
  it.each(EVENT_NAMES)('builds a valid %s event', (name) => {
    expect(webhookEventSchema.safeParse(createEvent(name)).success).toBe(true)
  })

  it('applies typed overrides and merges data', () => {
    const event = events.notificationResponded({ user_app_id: 'u-1', data: { response: 'emoji:👍' } })
    expect(event).toMatchObject({ event: 'notification.responded', user_app_id: 'u-1', data: { response: 'emoji:👍' } })
    expect(event.data.event_id).toMatch(/^evt_/)
    expect(events.gesture({ gesture_type: 'swipe_up', external_user_id: 'crm-1' })).toMatchObject({
      gesture_type: 'swipe_up',
      external_user_id: 'crm-1',
      data: {},
    })
  })
})

describe('factory-made notification answers', () => {
  it('each get a fresh data.event_id, so a receiver handles every one (none is a duplicate)', async () => {
    const receiver = createReceiver({ secret, logger: silentLogger })
    const handled: string[] = []
    receiver.on('notification.responded', (event) => void handled.push(event.data.event_id))
    const made = [
      events.notificationResponded(),
      events.notificationResponded(),
      createEvent('notification.responded'),
      createEvent('notification.responded', { data: { response: 'no' } }),
    ]
    for (const payload of made) {
      const { body, headers } = await signEvent({ secret, payload })
      const response = await receiver.handle({ method: 'POST', headers, rawBody: body })
      expect([response.status, response.headers['x-ringhook-duplicate']]).toEqual([200, undefined])
    }
    expect(handled).toEqual(made.map((event) => event.data.event_id))
    expect(new Set(handled).size).toBe(4)
  })
})

describe('checkGestureReply', () => {
  it.each([
    ['', 'none'],
    ['ok', 'none'],
    ['{"success":true}', 'none'],
    ['{"success":true,"vibe":{"sequence":[{"type":"tap"}]}}', 'vibe'],
    ['{"success":true,"vibe":{"sequence":[{"type":"buzz"}]}}', 'invalid'],
  ])('%s -> %s', (body, kind) => {
    expect(checkGestureReply(body).kind).toBe(kind)
  })

  it('names the rule a vibe breaks', () => {
    const result = checkGestureReply('{"success":true,"vibe":{"sequence":[{"type":"tap"}],"show_ring_ui_notif":true}}')
    expect(result).toEqual({ kind: 'invalid', rule: expect.stringContaining('vibe.message: is required') })
  })
})

describe('sendWebhook against a real receiver', () => {
  let server: Server
  let url: string
  beforeAll(async () => {
    const receiver = createReceiver({ secret, logger: silentLogger })
    receiver.on('gesture', (event) => vibe('tap', 'pulse').message(`Got ${event.gesture_type}`))
    server = createServer(ringhook(receiver, { path: '/webhooks' }))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('returns status, parsed reply, latency and the checked vibe', async () => {
    const result = await sendWebhook(url, events.gesture({ gesture_type: 'long_press' }), { secret })
    expect(result).toMatchObject({ status: 200, ok: true, reply: { success: true } })
    expect(result.latencyMs).toBeGreaterThanOrEqual(0)
    expect(result.vibe).toMatchObject({ kind: 'vibe', vibe: { message: 'Got long_press' } })
  })

  it('reports a rejection when the secret is wrong', async () => {
    const result = await sendWebhook(url, events.appInstalled(), { secret: 'whsec_wrong' })
    expect(result).toMatchObject({ status: 401, ok: false, vibe: undefined })
    expect(result.reply).toMatchObject({ error: { code: 'unauthorized' } })
  })
})

describe('explainAnswer', () => {
  it('names the code, the meaning and the fix of a ringhook refusal', async () => {
    const { explainAnswer } = await import('../src/index.js')
    const body = JSON.stringify({ error: { code: 'body_already_parsed', message: 'misconfigured' } })
    expect(explainAnswer(500, body)).toMatchObject({
      code: 'body_already_parsed',
      fix: expect.stringMatching(/parser/),
    })
    expect(explainAnswer(404, 'Cannot POST /hooks')).toMatchObject({
      code: undefined,
      fix: expect.stringMatching(/path/),
    })
    expect(explainAnswer(200, '{"ok":true}')).toEqual({ code: undefined, meaning: 'acknowledged', fix: undefined })
  })
})
