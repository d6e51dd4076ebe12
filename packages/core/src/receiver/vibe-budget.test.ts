import { describe, expect, it } from 'vitest'
import { RinghookConfigError } from '../errors.js'
import type { Logger } from '../logger.js'
import { silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import { createReceiver } from './create-receiver.js'
import type { WebhookRequest } from './request.js'
import type { VibeBudget } from './vibe-budget.js'

const secret = 'whsec_budget'
let nowMs = 1_800_000_000_000
let sent = 0

/** A signed gesture from `user`; each call a distinct delivery unless `timestamp` repeats one. */
async function gesture(user = 'u1', timestamp = new Date(1_790_000_000_000 + ++sent).toISOString()) {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: user,
    app_id: 'app_1',
    timestamp,
    data: {},
  })
  const { headers } = await signWebhook({ secret, body, timestamp: nowMs / 1000 })
  return { method: 'POST', headers, rawBody: body } satisfies WebhookRequest
}

/** A budget of `left` vibes per user, recording what it was asked. */
function budget(left: number): VibeBudget & { taken: string[] } {
  const used = new Map<string, number>()
  const taken: string[] = []
  return {
    taken,
    takeVibe(appId, userAppId) {
      const key = `${appId}/${userAppId}`
      const count = used.get(key) ?? 0
      if (count >= left) return false
      used.set(key, count + 1)
      taken.push(key)
      return Promise.resolve(true)
    },
    vibesLeft: (appId, userAppId) => left - (used.get(`${appId}/${userAppId}`) ?? 0),
  }
}

function warnings(): Logger & { lines: string[]; fields: object[] } {
  const lines: string[] = []
  const fields: object[] = []
  const logger = {
    ...silentLogger,
    lines,
    fields,
    warn: (given: object, message?: string) => {
      fields.push(given)
      lines.push(message ?? '')
    },
  }
  return { ...logger, child: () => logger }
}

const receiverWith = (limits: VibeBudget, extra: object = {}) =>
  createReceiver({ secret, now: () => nowMs, logger: silentLogger, limits: { budget: limits }, ...extra })

describe('the receiver’s `limits`', () => {
  it('counts each reply’s vibe against its user, and answers without the vibe once the budget is spent', async () => {
    const limits = budget(2)
    const receiver = receiverWith(limits)
    receiver.on('gesture', () => vibe('tap'))
    const bodies: unknown[] = []
    for (let i = 0; i < 3; i++) bodies.push(JSON.parse(String((await receiver.handle(await gesture())).body)))
    expect(bodies.slice(0, 2)).toEqual([
      { success: true, vibe: { sequence: [{ type: 'tap' }] } },
      { success: true, vibe: { sequence: [{ type: 'tap' }] } },
    ])
    expect(bodies[2]).toEqual({ success: true })
    expect(limits.taken).toEqual(['app_1/u1', 'app_1/u1'])
    expect(receiver.options.limits?.stats()).toEqual({ counted: 2, overBudget: 1, unchecked: 0 })
    // Another user has a budget of her own.
    expect(JSON.parse(String((await receiver.handle(await gesture('u2'))).body))).toHaveProperty('vibe')
  })

  it('never counts a retry answered from the dedup store', async () => {
    const limits = budget(5)
    const receiver = receiverWith(limits)
    receiver.on('gesture', () => vibe('pulse'))
    const first = await gesture('u1', '2026-11-22T10:00:00.000Z')
    await receiver.handle(first)
    const retry = await receiver.handle(await gesture('u1', '2026-11-22T10:00:00.000Z'))
    expect(retry.headers['x-ringhook-duplicate']).toBe('true')
    expect(JSON.parse(String(retry.body))).toHaveProperty('vibe')
    expect(limits.taken).toHaveLength(1)
  })

  it('counts nothing for a reply without a vibe, and shows the handler what is left', async () => {
    const limits = budget(3)
    const receiver = receiverWith(limits)
    const seen: (number | undefined)[] = []
    receiver.on('gesture', async (_event, context) => {
      seen.push(await context.vibesLeft?.())
    })
    await receiver.handle(await gesture())
    await receiver.handle(await gesture())
    expect(seen).toEqual([3, 3])
    expect(limits.taken).toEqual([])
  })

  it('sends the vibe anyway with whenSpent: send, and logs a spent budget at most once a minute', async () => {
    const logger = warnings()
    const receiver = createReceiver({
      secret,
      now: () => nowMs,
      logger,
      limits: { budget: budget(0), whenSpent: 'send' },
    })
    receiver.on('gesture', () => vibe('tap'))
    for (let i = 0; i < 3; i++)
      expect(JSON.parse(String((await receiver.handle(await gesture())).body))).toHaveProperty('vibe')
    expect(logger.lines).toHaveLength(1)
    nowMs += 60_000
    await receiver.handle(await gesture())
    expect(logger.lines).toHaveLength(2)
    expect(receiver.options.limits?.stats().overBudget).toBe(4)
  })

  it('spends nothing on a reply that finished after the deadline: the gesture was answered without it', async () => {
    const limits = budget(5)
    const receiver = receiverWith(limits, { deadlineMs: 20, onDeadline: 'acknowledge' })
    let answered: () => void = () => {}
    const answer = new Promise<void>((resolve) => {
      answered = resolve
    })
    receiver.on('gesture', async () => {
      await answer
      return vibe('tap')
    })
    // Acknowledged at the deadline, without the vibe.
    const response = await receiver.handle(await gesture())
    expect([response.status, JSON.parse(String(response.body))]).toEqual([200, { ok: true }])
    // The handler's reply comes only once the acknowledgement went out; close() waits for it.
    answered()
    expect(await receiver.close()).toEqual({ drained: true, pending: 0 })
    expect(limits.taken).toEqual([])
    expect(receiver.options.limits?.stats()).toEqual({ counted: 0, overBudget: 0, unchecked: 0 })
  })

  it('shows each handler the vibes left of the delivery’s own user', async () => {
    const limits = budget(3)
    const asked: string[] = []
    const receiver = receiverWith({
      takeVibe: limits.takeVibe,
      vibesLeft: (appId, userAppId) => {
        asked.push(`${appId}/${userAppId}`)
        return limits.vibesLeft(appId, userAppId)
      },
    })
    const seen: string[] = []
    receiver.on('gesture', async (event, context) => {
      seen.push(`${event.user_app_id}: ${await context.vibesLeft?.()}`)
      return vibe('tap')
    })
    for (const user of ['u1', 'u1', 'u2', 'u1']) await receiver.handle(await gesture(user))
    expect(seen).toEqual(['u1: 3', 'u1: 2', 'u2: 3', 'u1: 1'])
    expect(asked).toEqual(['app_1/u1', 'app_1/u1', 'app_1/u2', 'app_1/u1'])
  })

  it('sends the vibe unchecked when the budget throws or rejects, and says so', async () => {
    const logger = warnings()
    const failures = [
      () => {
        throw new Error('limit store unreachable')
      },
      () => Promise.reject(new Error('limit store timed out')),
    ]
    const receiver = createReceiver({
      secret,
      now: () => nowMs,
      logger,
      limits: { budget: { takeVibe: () => (failures.shift() as () => never)(), vibesLeft: () => 0 } },
    })
    receiver.on('gesture', () => vibe('tap'))
    for (let i = 0; i < 2; i++)
      expect(JSON.parse(String((await receiver.handle(await gesture())).body))).toEqual({
        success: true,
        vibe: { sequence: [{ type: 'tap' }] },
      })
    expect(receiver.options.limits?.stats()).toEqual({ counted: 0, overBudget: 0, unchecked: 2 })
    expect(logger.lines).toEqual([
      'The vibe budget failed: the gesture reply was sent uncounted',
      'The vibe budget failed: the gesture reply was sent uncounted',
    ])
    expect(logger.fields).toEqual([
      { error: 'Error: limit store unreachable' },
      { error: 'Error: limit store timed out' },
    ])
  })

  it('logs a spent budget once a minute: how many since the last line, and what was done with them', async () => {
    const lines: Array<[object, string | undefined]> = []
    const logger = { ...silentLogger, warn: (fields: object, message?: string) => void lines.push([fields, message]) }
    const receiverOf = (whenSpent?: 'drop' | 'send') =>
      createReceiver({
        secret,
        now: () => nowMs,
        logger: { ...logger, child: () => logger },
        limits: { budget: budget(0), ...(whenSpent ? { whenSpent } : {}) },
      })
    const dropping = receiverOf()
    dropping.on('gesture', () => vibe('tap'))
    for (let i = 0; i < 3; i++) await dropping.handle(await gesture())
    nowMs += 60_000
    await dropping.handle(await gesture())
    const dropped = 'Gesture replies over their user’s vibe budget were answered without the vibe (limits.whenSpent)'
    expect(lines).toEqual([
      [{ over_budget: 1, when_spent: 'drop' }, dropped],
      [{ over_budget: 3, when_spent: 'drop' }, dropped],
    ])
    lines.length = 0
    for (const whenSpent of ['drop', 'send'] as const) {
      const receiver = receiverOf(whenSpent)
      receiver.on('gesture', () => vibe('tap'))
      await receiver.handle(await gesture())
    }
    expect(lines).toEqual([
      [{ over_budget: 1, when_spent: 'drop' }, dropped],
      [
        { over_budget: 1, when_spent: 'send' },
        'Gesture replies over their user’s vibe budget were sent anyway (limits.whenSpent)',
      ],
    ])
  })

  it('asks nothing of the budget when the handler failed: the delivery fails as without limits', async () => {
    const limits = budget(5)
    const receiver = receiverWith(limits)
    receiver.on('gesture', () => {
      throw new Error('the handler broke')
    })
    const response = await receiver.handle(await gesture())
    expect([response.status, JSON.parse(String(response.body)).error.code]).toEqual([500, 'handler_error'])
    expect(limits.taken).toEqual([])
    expect(receiver.options.limits?.stats()).toEqual({ counted: 0, overBudget: 0, unchecked: 0 })
  })

  it('refuses a budget that is not one', () => {
    const refused = /^limits needs `budget`: e.g. the limiter from createRateLimiter\(\) of @ringhook\/client$/
    expect(() => createReceiver({ secret, limits: {} as never })).toThrow(refused)
    expect(() => createReceiver({ secret, limits: { budget: { takeVibe: () => true } as never } })).toThrow(refused)
    expect(() => createReceiver({ secret, limits: { budget: {} as VibeBudget } })).toThrow(RinghookConfigError)
    expect(() => createReceiver({ secret, limits: { budget: budget(1), whenSpent: 'maybe' as 'drop' } })).toThrow(
      /whenSpent/,
    )
  })
})
