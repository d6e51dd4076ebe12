import type { EventName, EventOf, WebhookEvent } from '@ringhook/core'
import type { NotificationResponse } from '@ringhook/core/api'
import type { SimContext } from './context.js'
import type { Install } from './model.js'

type Extra<N extends EventName> = N extends 'gesture'
  ? { gesture_type: string }
  : N extends 'notification.responded'
    ? { data: { event_id: string; response: NotificationResponse } }
    : Record<string, never>

/** A webhook body for one install, fields in the spec's order; `external_user_id` only when linked. */
export function webhookPayload<N extends EventName>(
  ctx: SimContext,
  install: Install,
  event: N,
  extra: Extra<N>,
): EventOf<N> {
  const { gesture_type, data } = extra as { gesture_type?: string; data?: Record<string, unknown> }
  const payload = {
    event,
    ...(gesture_type === undefined ? {} : { gesture_type }),
    user_app_id: install.user_app_id,
    ...(install.external_user_id === null ? {} : { external_user_id: install.external_user_id }),
    app_id: install.app_id,
    timestamp: ctx.eventTimestamp(),
    data: data ?? {},
  }
  return payload as WebhookEvent as EventOf<N>
}
