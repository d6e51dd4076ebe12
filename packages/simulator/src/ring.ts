import type { VibePayload } from '@ringhook/core/api'
import type { SimContext } from './context.js'
import { SimulatorError } from './errors.js'
import type { App, Install, Vibe } from './model.js'

/** Why a ring cannot take a vibe right now; the API hides it as `not_enabled`, the log names it. */
export type Barrier = 'no_priority_slot' | 'muted' | 'ring_off' | 'companion_closed'

/** The user-side barrier in force, if any. A priority slot only matters to preferred_notification apps. */
export function barrierOf(ctx: SimContext, app: App, install: Install): Barrier | null {
  const user = ctx.state.users.get(install.user_id)
  if (app.type === 'preferred_notification' && !install.priority_slot) return 'no_priority_slot'
  if (install.muted) return 'muted'
  if (user?.ring_off) return 'ring_off'
  if (user?.companion_closed) return 'companion_closed'
  return null
}

/** Counts one vibe against the user's 30-per-minute limit; the error is the API's 429. */
export function takeVibeQuota(ctx: SimContext, install: Install): void {
  const taken = ctx.vibeLimit.take(install.user_id)
  if (!taken.ok) {
    const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000))
    const { limit } = ctx.settings.rate_limits.vibes_per_user
    throw new SimulatorError(429, 'rate_limited', `This user has received ${limit} vibes in the last minute.`, {
      'retry-after': String(seconds),
    })
  }
}

export interface VibeRecord {
  source: Vibe['source']
  app: App
  install: Install
  vibe: VibePayload | { sequence: Vibe['sequence']; message?: string; show_ring_ui_notif?: boolean }
  status: Vibe['status']
  rule?: string | null
  eventId?: string | null
  deliveryId?: string | null
}

/** Records what reached a ring (or did not) in the log and the vibe list. */
export function recordVibe(ctx: SimContext, record: VibeRecord): Vibe {
  const vibe: Vibe = {
    id: ctx.ids.next('vib'),
    source: record.source,
    app_id: record.app.app_id,
    user_app_id: record.install.user_app_id,
    user_id: record.install.user_id,
    event_id: record.eventId ?? null,
    delivery_id: record.deliveryId ?? null,
    status: record.status,
    rule: record.rule ?? null,
    sequence: record.vibe.sequence.map((step) => ({ ...step })),
    message: record.vibe.message ?? null,
    show_ring_ui_notif: record.vibe.show_ring_ui_notif ?? false,
    at: ctx.iso(),
  }
  ctx.state.addVibe(vibe)
  ctx.log.append({ type: 'vibe', ...vibe })
  return vibe
}
