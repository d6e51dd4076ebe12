// The published JSON Schemas against what the receiver accepts: every fixture the repository's suites
// send (the conformance suite's payloads, @ringhook/testing's factories) passes both, and payloads
// and gesture replies the receiver refuses fail the schemas too. A disagreement is fixed in core's
// zod definition, which both are made from.
import { createReceiver, silentLogger } from '@ringhook/core'
import { EVENT_NAMES, type EventName } from '@ringhook/core/api'
import { LIFECYCLE_EVENT_NAMES } from '@ringhook/core/internal'
import { signWebhook } from '@ringhook/core/signature'
import { createEvent, events } from '@ringhook/testing'
import { describe, expect, it } from 'vitest'
import { schemaErrors } from '../../packages/schemas/test/ajv.js'
import { gesture, lifecycle, NOW_MS, NOW_S, responded, SECRET } from '../support/events.js'

/** What a real receiver answers a payload, and the reply a gesture handler gives (`reply`). */
async function receive(payload: unknown, reply?: unknown): Promise<{ status: number; body: unknown }> {
  const receiver = createReceiver({ secret: SECRET, now: () => NOW_MS, logger: silentLogger })
  if (reply !== undefined) receiver.on('gesture', () => reply as never)
  const rawBody = JSON.stringify(payload)
  const { headers } = await signWebhook({ secret: SECRET, body: rawBody, timestamp: NOW_S })
  const response = await receiver.handle({ method: 'POST', headers, rawBody })
  return { status: response.status, body: response.body ? JSON.parse(response.body) : undefined }
}

const schemaOf = (payload: { event?: unknown }): string => String(payload.event)

const fixtures: [string, Record<string, unknown>][] = [
  ['conformance gesture', gesture()],
  ['conformance gesture with an emoji', gesture({ gesture_type: 'wave 👋🏽' })],
  ...LIFECYCLE_EVENT_NAMES.map((name): [string, Record<string, unknown>] => [`conformance ${name}`, lifecycle(name)]),
  ['conformance notification.responded', responded('evt_fixture')],
  ['conformance emoji answer', responded('evt_fixture_2', 'emoji:🎉')],
  ...EVENT_NAMES.map((name): [string, Record<string, unknown>] => [
    `createEvent('${name}')`,
    createEvent(name as EventName) as unknown as Record<string, unknown>,
  ]),
  ...Object.entries(events).map(([factory, make]): [string, Record<string, unknown>] => [
    `events.${factory}() with external_user_id`,
    make({ external_user_id: 'crm-42' }) as unknown as Record<string, unknown>,
  ]),
  ['a field the spec does not name (kept)', gesture({ intensity: 3, data: { extra: true } })],
]

describe('fixtures', () => {
  it.each(fixtures)('%s: the receiver and the JSON Schemas accept it', async (_, payload) => {
    expect((await receive(payload)).status).toBe(200)
    expect(schemaErrors(schemaOf(payload), payload)).toEqual([])
    expect(schemaErrors('webhook-event', payload)).toEqual([])
  })
})

const hostile: [string, Record<string, unknown>][] = [
  ['a gesture without gesture_type', gesture({ gesture_type: undefined })],
  ['an empty gesture_type', gesture({ gesture_type: '' })],
  ['no user_app_id', gesture({ user_app_id: undefined })],
  ['an empty app_id', gesture({ app_id: '' })],
  ['a numeric user_app_id', gesture({ user_app_id: 42 })],
  ['data as an array', gesture({ data: [] })],
  ['data missing', gesture({ data: undefined })],
  ['external_user_id not a string', gesture({ external_user_id: 7 })],
  ['a timestamp that is no date', gesture({ timestamp: 'yesterday' })],
  ['a response outside the spec', { ...responded('evt_bad'), data: { event_id: 'evt_bad', response: 'maybe' } }],
  ['an emoji answer without the emoji', { ...responded('evt_bad'), data: { event_id: 'evt_bad', response: 'emoji:' } }],
  ['a response without its event_id', { ...responded('evt_bad'), data: { response: 'yes' } }],
]

describe('payloads the receiver refuses', () => {
  it.each(hostile)('%s: refused by the receiver and by the JSON Schemas', async (_, payload) => {
    const payloadJson = JSON.parse(JSON.stringify(payload)) // undefined fields dropped, as sent
    expect(await receive(payloadJson)).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } })
    expect(schemaErrors(schemaOf(payloadJson), payloadJson)).not.toEqual([])
    expect(schemaErrors('webhook-event', payloadJson)).not.toEqual([])
  })
})

const emoji80 = '🎉'.repeat(80)

describe('gesture replies', () => {
  it.each([
    ['one tap', { success: true, vibe: { sequence: [{ type: 'tap' }] } }],
    [
      'three steps, a message of 80 emoji, the notification',
      {
        success: true,
        vibe: {
          sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 150 }, { type: 'tap', delay_ms: 2000 }],
          message: emoji80,
          show_ring_ui_notif: true,
        },
      },
    ],
    ['no vibe', { success: false }],
  ])('%s: sent by the receiver, accepted by the schema', async (_, reply) => {
    const answer = await receive(gesture(), reply)
    expect(answer).toEqual({ status: 200, body: reply })
    expect(schemaErrors('gesture-reply', answer.body)).toEqual([])
  })

  const vibeOf = (vibe: Record<string, unknown>) => ({ success: true, vibe })
  it.each([
    ['four steps', vibeOf({ sequence: [{ type: 'tap' }, { type: 'tap' }, { type: 'tap' }, { type: 'tap' }] })],
    ['no step', vibeOf({ sequence: [] })],
    ['a pattern outside tap and pulse', vibeOf({ sequence: [{ type: 'buzz' }] })],
    ['a delay under 150 ms', vibeOf({ sequence: [{ type: 'tap', delay_ms: 100 }] })],
    ['a delay over 2000 ms', vibeOf({ sequence: [{ type: 'tap', delay_ms: 2001 }] })],
    ['a fractional delay', vibeOf({ sequence: [{ type: 'tap', delay_ms: 300.5 }] })],
    ['81 characters', vibeOf({ sequence: [{ type: 'tap' }], message: `${emoji80}!` })],
    ['the notification without a message', vibeOf({ sequence: [{ type: 'tap' }], show_ring_ui_notif: true })],
    [
      'the notification with a blank message',
      vibeOf({ sequence: [{ type: 'tap' }], message: ' \n ', show_ring_ui_notif: true }),
    ],
    ['an unknown field in the vibe', vibeOf({ sequence: [{ type: 'tap' }], priority: 'high' })],
    ['an unknown field in a step', vibeOf({ sequence: [{ type: 'tap', strength: 2 }] })],
    ['success missing', { vibe: { sequence: [{ type: 'tap' }] } }],
  ])('%s: not sent by the receiver (500), refused by the schema', async (_, reply) => {
    const answer = await receive(gesture(), reply)
    expect(answer).toMatchObject({ status: 500, body: { error: { code: 'handler_error' } } })
    expect(schemaErrors('gesture-reply', reply)).not.toEqual([])
  })
})
