import type { EventName, EventOf, WebhookEvent } from '@ringhook/core'
import type { EventSample } from '@ringhook/core/internal'
import type { SimContext } from './context.js'
import type { Install } from './model.js'

/** An event's own fields, as core's list of events types them; an empty `data` may be left out. */
type Extra<N extends EventName> = Omit<EventSample<N>, 'data'> &
  ([keyof EventOf<N>['data']] extends [never] ? { data?: EventOf<N>['data'] } : { data: EventOf<N>['data'] })

/**
 * A webhook body for one install, fields in the spec's order (the event's own top-level fields, such
 * as `gesture_type`, after its name); `external_user_id` only when linked.
 */
export function webhookPayload<N extends EventName>(
  ctx: SimContext,
  install: Install,
  event: N,
  extra: Extra<N>,
): EventOf<N> {
  const { data, ...own } = extra as { data?: Record<string, unknown> } & Record<string, unknown>
  const payload = {
    event,
    ...own,
    user_app_id: install.user_app_id,
    ...(install.external_user_id === null ? {} : { external_user_id: install.external_user_id }),
    app_id: install.app_id,
    timestamp: ctx.eventTimestamp(),
    data: data ?? {},
  }
  return payload as WebhookEvent as EventOf<N>
}
