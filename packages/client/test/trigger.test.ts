import { once } from 'node:events'
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  type AwaitTriggerResult,
  after,
  type QueuedTriggerResult,
  type TriggerResult,
  ValidationError,
  vibe,
} from '../src/index.js'
import { ALICE, APP, BOB, useWorld } from './world.js'

const base = { app_id: APP, user_app_id: ALICE }
const tap = { ...base, sequence: [{ type: 'tap' as const }] }
const options = (n: number, label = 'ok') => Array.from({ length: n }, (_, i) => ({ emoji: `${i}️⃣`, label }))

describe('vibes.trigger: validation before any request', () => {
  const world = useWorld()

  it.each([
    ['no step', { sequence: [] }, 'sequence'],
    ['four steps', { sequence: Array(4).fill({ type: 'tap' }) }, 'sequence'],
    ['an unknown pattern', { sequence: [{ type: 'buzz' }] }, 'sequence.0.type'],
    ['a delay of 149', { sequence: [{ type: 'tap', delay_ms: 149 }] }, 'sequence.0.delay_ms'],
    ['a delay of 2001', { sequence: [{ type: 'tap', delay_ms: 2001 }] }, 'sequence.0.delay_ms'],
    ['an 81-character message', { message: 'x'.repeat(81) }, 'message'],
    ['a notification without message', { show_ring_ui_notif: true }, 'message'],
    ['timeout_ms in poll mode', { response_mode: 'poll', timeout_ms: 5000 }, 'timeout_ms'],
    ['timeout_ms of 4999', { response_mode: 'await', timeout_ms: 4999 }, 'timeout_ms'],
    ['timeout_ms of 60001', { response_mode: 'await', timeout_ms: 60_001 }, 'timeout_ms'],
    ['an unknown mode', { response_mode: 'email' }, 'response_mode'],
    ['an unknown config type', { response_config: { type: 'stars' } }, 'response_config.type'],
    ['one emoji option', { response_config: { type: 'emoji', options: options(1) } }, 'response_config.options'],
    [
      'an empty emoji',
      { response_config: { type: 'emoji', options: [...options(1), { emoji: '', label: 'x' }] } },
      'response_config.options.1.emoji',
    ],
    ['a typo in a field name', { respons_mode: 'await' }, 'respons_mode'],
    ['an empty app_id', { app_id: '' }, 'app_id'],
  ])('refuses %s, naming %s', async (_name, patch, field) => {
    const error = await world
      .client()
      .vibes.trigger({ ...tap, ...patch } as never)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).issues.map((i) => i.field)).toContain(field)
    expect(world.fixture.requests).toHaveLength(0)
  })

  it('names the first field in the error itself', async () => {
    const error = await world
      .client()
      .vibes.trigger({ ...tap, message: 'x'.repeat(81) })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      kind: 'validation',
      field: 'message',
      message: expect.stringMatching(/^Invalid message:/),
    })
  })
})

describe('vibes.trigger: truncation', () => {
  const world = useWorld()
  const six = { ...tap, response_config: { type: 'emoji' as const, options: options(6) } }
  const longLabel = { ...tap, response_config: { type: 'emoji' as const, options: options(2, 'a label of 20 chars!') } }

  it('refuses by default what the service would truncate, and says how to allow it', async () => {
    const client = world.client()
    await expect(client.vibes.trigger(six)).rejects.toMatchObject({
      field: 'response_config.options',
      message: expect.stringContaining('allowTruncation: true'),
    })
    await expect(client.vibes.trigger(longLabel)).rejects.toMatchObject({ field: 'response_config.options.0.label' })
    expect(world.fixture.requests).toHaveLength(0)
  })

  it('with allowTruncation, sends it and returns and logs the service’s warnings', async () => {
    const client = world.client({ allowTruncation: true })
    const result = await client.vibes.trigger(six)
    expect(result.warnings).toEqual(['response_config.options: kept the first 5 of 6'])
    const perCall = await world.client().vibes.trigger(longLabel, { allowTruncation: true })
    expect(perCall.warnings).toHaveLength(2)
    const logged = world.logger.lines.filter((l) => l.level === 'warn')
    expect(logged.map((l) => l.message)).toEqual([
      'The service truncated response_config',
      'The service truncated response_config',
    ])
    expect(logged[0]?.fields).toMatchObject({ app_id: APP, warnings: result.warnings })
  })

  it('with allowTruncation, still refuses what the service does not accept', async () => {
    const client = world.client({ allowTruncation: true })
    await expect(
      client.vibes.trigger({ ...tap, response_config: { type: 'emoji', options: options(1) } }),
    ).rejects.toMatchObject({ field: 'response_config.options' })
    await expect(client.vibes.trigger({ ...six, sequence: [] })).rejects.toMatchObject({ field: 'sequence' })
    expect(world.fixture.requests).toHaveLength(0)
  })
})

describe('vibes.trigger: modes', () => {
  const world = useWorld()

  it('webhook mode (the default) returns the delivery', async () => {
    const result = await world.client().vibes.trigger(tap)
    expectTypeOf(result).toEqualTypeOf<QueuedTriggerResult>()
    expect(result).toMatchObject({ success: true, event_id: 'evt_2', response_mode: 'webhook' })
    expect(result.delivery).toMatchObject({ method: 'ring', app_state: 'active' })
    expect(world.fixture.requests[0]?.body).toEqual(tap)
  })

  it('accepts the vibe builder in place of sequence, message and show_ring_ui_notif', async () => {
    await world.client().vibes.trigger({ ...base, vibe: vibe('tap', after(600, 'pulse')).notify('Lunch?') })
    expect(world.fixture.requests[0]?.body).toEqual({
      ...base,
      sequence: [{ type: 'tap' }, { type: 'pulse', delay_ms: 600 }],
      message: 'Lunch?',
      show_ring_ui_notif: true,
    })
    await expect(
      world.client().vibes.trigger({ ...base, vibe: vibe('tap'), sequence: [{ type: 'tap' }] } as never),
    ).rejects.toMatchObject({ field: 'vibe' })
    const noMessage = { sequence: [{ type: 'tap' as const }], show_ring_ui_notif: true }
    await expect(world.client().vibes.trigger({ ...base, vibe: noMessage })).rejects.toMatchObject({
      field: 'message',
    })
  })

  it('poll mode, then events.response before and after the user answers', async () => {
    const client = world.client()
    const result = await client.vibes.trigger({
      ...tap,
      response_mode: 'poll',
      response_config: { type: 'yes_no_dismiss' },
    })
    expect(result.response_mode).toBe('poll')
    const eventId = result.event_id ?? ''
    expect(await client.events.response(eventId)).toEqual({
      event_id: eventId,
      status: 'pending',
      response: null,
      responded_at: null,
    })
    world.fixture.respond(eventId, 'yes')
    expect(await client.events.response(eventId)).toMatchObject({ status: 'responded', response: 'yes' })
  })

  it('waitForResponse polls at intervalMs until the user responds', async () => {
    const client = world.client()
    const { event_id } = await client.vibes.trigger({
      ...tap,
      response_mode: 'poll',
      response_config: { type: 'yes_no_dismiss' },
    })
    const eventId = event_id ?? ''
    world.clock.onSleep = () => {
      if (world.clock.sleeps.length === 2) world.fixture.respond(eventId, 'emoji:👍')
    }
    const record = await client.events.waitForResponse(eventId, { intervalMs: 500 })
    expect(record).toMatchObject({ status: 'responded', response: 'emoji:👍' })
    expect(world.clock.sleeps).toEqual([500, 500])
    expect(world.fixture.requests.filter((r) => r.path.startsWith('/v1/events/'))).toHaveLength(3)
  })

  it('waitForResponse returns the pending record at its own timeout', async () => {
    const client = world.client()
    const { event_id } = await client.vibes.trigger({ ...tap, response_mode: 'poll' })
    const record = await client.events.waitForResponse(event_id ?? '', { intervalMs: 400, timeoutMs: 1000 })
    expect(record.status).toBe('pending')
    expect(world.clock.sleeps).toEqual([400, 400, 200])
    await expect(client.events.waitForResponse('x', { intervalMs: 0 })).rejects.toMatchObject({ field: 'intervalMs' })
  })

  it('await mode returns the user’s response', async () => {
    const client = world.client()
    const started = once(world.fixture.signals, 'await-start')
    const pending = client.vibes.trigger({
      ...tap,
      response_config: { type: 'yes_no_dismiss' },
      response_mode: 'await',
      timeout_ms: 60_000,
    })
    const [eventId] = (await started) as [string]
    world.fixture.respond(eventId, 'no')
    const result = await pending
    expectTypeOf(result).toExtend<AwaitTriggerResult>()
    expect(result).toMatchObject({
      success: true,
      event_id: eventId,
      response_mode: 'await',
      response: { status: 'responded', value: 'no', responded_at: expect.any(String) },
    })
  })

  it('await mode returns status timeout when the user does not answer in time', async () => {
    const result = await world.client().vibes.trigger({ ...tap, response_mode: 'await', timeout_ms: 5000 })
    expect(result.response).toEqual({ status: 'timeout', value: null })
    expect(result.success).toBe(true)
  })

  it('await mode outlives the client’s usual request timeout', async () => {
    // The fixture holds the connection 30 s scaled to 30 ms, then 300 ms: longer than timeoutMs.
    const client = world.client({ timeoutMs: 100, retry: false })
    world.fixture.inject({ delayMs: 300 })
    const result = await client.vibes.trigger({ ...tap, response_mode: 'await' })
    expect(result.response.status).toBe('timeout')
    world.fixture.inject({ delayMs: 300 })
    await expect(client.vibes.trigger(tap)).rejects.toMatchObject({ kind: 'timeout', timeoutMs: 100 })
  })

  it('await mode can be aborted; the connection is closed', async () => {
    const controller = new AbortController()
    const started = once(world.fixture.signals, 'await-start')
    const ended = once(world.fixture.signals, 'await-end')
    const pending = world
      .client()
      .vibes.trigger({ ...tap, response_mode: 'await', timeout_ms: 60_000 }, { signal: controller.signal })
    await started
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    expect((await ended)[1]).toBe('closed')
  })

  it.each([
    ['webhook', { delivery_status: 'not_enabled' }],
    ['poll', { delivery_status: 'not_enabled' }],
    ['await', { response: { status: 'not_enabled', value: null } }],
  ] as const)('not_enabled in %s mode is a result with success false, not an error', async (mode, expected) => {
    const result = await world.client().vibes.trigger({ ...tap, user_app_id: BOB, response_mode: mode })
    expect(result).toMatchObject({ success: false, event_id: null, response_mode: mode, ...expected })
  })

  it('types the result by response_mode', () => {
    const client = world.client()
    type Of<T> = T extends (...args: never[]) => Promise<infer R> ? R : never
    const queued = () => client.vibes.trigger({ ...tap, response_mode: 'poll' })
    const awaited = () => client.vibes.trigger({ ...tap, response_mode: 'await' })
    const mode = 'await' as 'await' | 'poll'
    const either = () => client.vibes.trigger({ ...tap, response_mode: mode })
    expectTypeOf<Of<typeof queued>>().toEqualTypeOf<QueuedTriggerResult>()
    expectTypeOf<Of<typeof awaited>['response']['status']>().toEqualTypeOf<'responded' | 'timeout' | 'not_enabled'>()
    expectTypeOf<Of<typeof either>>().toExtend<TriggerResult>()
  })
})
