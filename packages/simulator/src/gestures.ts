import { checkGestureReply } from '@ringhook/testing'
import type { SimContext } from './context.js'
import type { Deliveries } from './delivery.js'
import { invalid, invalidTransition, SimulatorError } from './errors.js'
import { type GestureInput, gestureInput, parseInput } from './inputs.js'
import type { Delivery, Vibe } from './model.js'
import { webhookPayload } from './payloads.js'
import { barrierOf, recordVibe, takeVibeQuota } from './ring.js'

/** A gesture on a ring, and what came of it. */
export interface GestureResult {
  /** The gesture as performed. */
  gesture: {
    /** The install it was performed in. */
    user_app_id: string
    /** The app it was meant for. */
    app_id: string
    /** Which gesture. */
    gesture_type: string
  }
  /** False when the user turned gesture forwarding off: no webhook was sent. */
  forwarded: boolean
  /** The `gesture` webhook's delivery; null when the gesture was not forwarded. */
  delivery: Delivery | null
  /** The vibe the app's reply produced (known once the delivery has settled; use `wait`). */
  vibe: Vibe | null
}

/** The user performs a gesture: a `gesture` webhook unless forwarding is off. */
export async function performGesture(
  ctx: SimContext,
  deliveries: Deliveries,
  userAppId: string,
  raw: GestureInput,
): Promise<GestureResult> {
  const input = parseInput(gestureInput, raw)
  const install = ctx.state.install(userAppId)
  const app = ctx.state.app(install.app_id)
  if (!ctx.settings.gesture_types.includes(input.gesture_type)) {
    throw invalid(`gesture_type: must be one of ${ctx.settings.gesture_types.join(', ')} (add more with gestureTypes).`)
  }
  if (app.type === 'preferred_notification') throw invalidTransition('preferred_notification apps receive no gestures.')
  if (install.state !== 'active') throw invalidTransition(`Gestures need the app active; it is ${install.state}.`)
  const gesture = { user_app_id: userAppId, app_id: app.app_id, gesture_type: input.gesture_type }
  const forwarded = install.permissions.gestures
  const delivery = forwarded
    ? deliveries.send(app, webhookPayload(ctx, install, 'gesture', { gesture_type: input.gesture_type }))
    : null
  ctx.log.append({ type: 'gesture', ...gesture, forwarded, delivery_id: delivery?.id ?? null })
  if (delivery && input.wait) await deliveries.settled(delivery)
  return { gesture, forwarded, delivery, vibe: vibeOf(ctx, delivery) }
}

function vibeOf(ctx: SimContext, delivery: Delivery | null): Vibe | null {
  if (!delivery?.vibe_id) return null
  return ctx.state.vibes.find((vibe) => vibe.id === delivery.vibe_id) ?? null
}

/**
 * What the ring does with an app's answer to a gesture: the vibe is checked with the trigger
 * rules, then the user's permission, limit and barriers; every outcome is recorded.
 */
export function handleGestureReply(ctx: SimContext, delivery: Delivery, body: string): string | null {
  const check = checkGestureReply(body)
  if (check.kind === 'none') return null
  const app = ctx.state.apps.get(delivery.app_id)
  const install = ctx.state.installs.get(delivery.user_app_id)
  if (!app || !install) return null
  const base = { source: 'gesture_reply', app, install, deliveryId: delivery.id } as const
  if (check.kind === 'invalid')
    return recordVibe(ctx, { ...base, vibe: { sequence: [] }, status: 'rejected', rule: check.rule }).id
  const record = (status: Vibe['status'], rule: string | null) =>
    recordVibe(ctx, { ...base, vibe: check.vibe, status, rule }).id
  if (!install.permissions.vibes) return record('rejected', 'permission_disabled: the user disabled vibes for this app')
  try {
    takeVibeQuota(ctx, install)
  } catch (error) {
    if (error instanceof SimulatorError) return record('rejected', `rate_limited: ${error.message}`)
    throw error
  }
  const barrier = barrierOf(ctx, app, install)
  return barrier ? record('not_enabled', `not_enabled: ${barrier}`) : record('delivered', null)
}
