import { describe, expect, it } from 'vitest'
import { RinghookConfigError } from '../errors.js'
import { silentLogger } from '../logger.js'
import { signWebhook } from '../signature/sign.js'
import { vibe } from '../vibe.js'
import { createReceiver } from './create-receiver.js'
import type { VibeBudget } from './vibe-budget.js'

const secret = 'whsec_budget_names'

/** A budget with no vibe left for anyone, counting what it was asked. */
function spent(): VibeBudget & { asked: number } {
  const budget = {
    asked: 0,
    takeVibe: () => {
      budget.asked++
      return false
    },
    vibesLeft: () => 0,
  }
  return budget
}

async function gesture() {
  const body = JSON.stringify({
    event: 'gesture',
    gesture_type: 'tap',
    user_app_id: 'u1',
    app_id: 'app_1',
    timestamp: new Date().toISOString(),
    data: {},
  })
  const { headers } = await signWebhook({ secret, body })
  return { method: 'POST', headers, rawBody: body }
}

describe('the vibe budget’s option, by its name and by its deprecated one', () => {
  it.each(['vibeBudget', 'limits'] as const)('`%s` spends the budget and counts in both names', async (name) => {
    const budget = spent()
    const receiver = createReceiver({ secret, logger: silentLogger, [name]: { budget } })
    receiver.on('gesture', () => vibe('tap'))
    const response = await receiver.handle(await gesture())
    expect(JSON.parse(String(response.body))).toEqual({ success: true })
    expect(budget.asked).toBe(1)
    expect(receiver.options.vibeBudget?.stats()).toEqual({ counted: 0, overBudget: 1, unchecked: 0 })
    expect(receiver.options.limits).toBe(receiver.options.vibeBudget)
  })

  it('refuses both names at once, and names the option given in its errors', () => {
    const budget = spent()
    expect(() => createReceiver({ secret, vibeBudget: { budget }, limits: { budget } })).toThrow(RinghookConfigError)
    expect(() => createReceiver({ secret, vibeBudget: { budget, whenSpent: 'x' as 'drop' } })).toThrow(
      /^vibeBudget\.whenSpent/,
    )
    expect(() => createReceiver({ secret, limits: { budget, whenSpent: 'x' as 'drop' } })).toThrow(/^limits\.whenSpent/)
  })
})
