import { VIBE_LIMITS } from '@ringhook/core'
import {
  type AwaitTriggerResult,
  describeIssues,
  type QueuedTriggerResult,
  serviceTriggerRequestSchema,
  TRIGGER_LIMITS,
} from '@ringhook/core/api'
import { invalid, SimulatorError } from '../errors.js'
import type { RouteRequest, RouteResult } from '../http/router.js'
import type { App, Install } from '../model.js'
import { barrierOf, recordVibe, takeVibeQuota } from '../ring.js'
import type { ApiContext } from './context.js'
import { installById, meUserId, ownedApp } from './lookup.js'
import { truncateResponseConfig } from './truncate.js'

// GET /v1/vibes/patterns and POST /v1/vibes/trigger

export function patterns(): RouteResult {
  return {
    status: 200,
    body: {
      patterns: [...VIBE_LIMITS.patterns],
      max_sequence_length: VIBE_LIMITS.maxSteps,
      timing: {
        min_delay_ms: VIBE_LIMITS.minDelayMs,
        max_delay_ms: VIBE_LIMITS.maxDelayMs,
        default_delay_ms: VIBE_LIMITS.defaultDelayMs,
      },
    },
  }
}

const notInstalled = (message: string) => new SimulatorError(403, 'not_installed', message)

/** The install a trigger targets: 400 for a bad id or an unlinked key, 403 when not installed. */
function target(context: ApiContext, app: App, userAppId: string): Install {
  if (userAppId === '@me') {
    const install = context.sim.state.installFor(app.app_id, meUserId(context))
    if (!install) throw notInstalled(`"@me" needs app "${app.app_id}" installed on the caller's own ring.`)
    return install
  }
  const install = installById(context, app, userAppId)
  if (!install) throw notInstalled(`User "${userAppId}" has not installed app "${app.app_id}".`)
  return install
}

/** Sends a vibe, in the order the spec's errors suggest: request, app, user, permission, limit, barriers. */
export async function trigger(request: RouteRequest, context: ApiContext): Promise<RouteResult> {
  const parsed = serviceTriggerRequestSchema.safeParse(await request.body())
  if (!parsed.success) throw invalid(describeIssues(parsed.error))
  const input = parsed.data
  const { sim } = context
  const app = ownedApp(context, input.app_id)
  const asks = input.response_config !== undefined && input.response_config.type !== 'none'
  if (asks && app.type !== 'preferred_notification') {
    throw invalid('response_config: only preferred_notification apps may ask for a response.')
  }
  const install = target(context, app, input.user_app_id)
  if (!install.permissions.vibes) {
    throw new SimulatorError(403, 'permission_disabled', 'The user disabled vibes for this app.')
  }
  takeVibeQuota(sim, install)
  const mode = input.response_mode ?? 'webhook'
  const { config, warnings } = truncateResponseConfig(input.response_config)
  const extra = warnings.length > 0 ? { warnings } : {}
  const vibe = { sequence: input.sequence, message: input.message, show_ring_ui_notif: input.show_ring_ui_notif }
  const barrier = barrierOf(sim, app, install)
  if (barrier) {
    recordVibe(sim, { source: 'trigger', app, install, vibe, status: 'not_enabled', rule: `not_enabled: ${barrier}` })
    return { status: 200, body: notEnabled(mode, extra) }
  }
  const eventId = sim.ids.eventId()
  sim.state.addEvent(eventId, app.app_id, install.user_app_id)
  recordVibe(sim, { source: 'trigger', app, install, vibe, status: 'delivered', eventId })
  const notification = config ? context.notifications.create(app, install, eventId, mode, config) : null
  if (mode === 'await') {
    const response = await context.notifications.wait(notification, input.timeout_ms ?? TRIGGER_LIMITS.defaultTimeoutMs)
    const body: AwaitTriggerResult = { success: true, event_id: eventId, response_mode: 'await', response, ...extra }
    return { status: 200, body }
  }
  const delivery = {
    method: 'ring',
    status: 'delivered',
    latency_ms: sim.settings.ring_latency_ms,
    app_state: install.state,
  }
  const body: QueuedTriggerResult = { success: true, event_id: eventId, response_mode: mode, delivery, ...extra }
  return { status: 200, body }
}

/** Rule 5: every mode returns at once with success false; the reason stays hidden. */
function notEnabled(mode: 'webhook' | 'poll' | 'await', extra: { warnings?: string[] }) {
  if (mode === 'await') {
    const body: AwaitTriggerResult = {
      success: false,
      event_id: null,
      response_mode: 'await',
      response: { status: 'not_enabled', value: null },
      ...extra,
    }
    return body
  }
  const body: QueuedTriggerResult = {
    success: false,
    event_id: null,
    response_mode: mode,
    delivery_status: 'not_enabled',
    ...extra,
  }
  return body
}
