import type { EventResponseRecord } from '@ringhook/core/api'
import { notFound } from '../errors.js'
import type { RouteRequest, RouteResult } from '../http/router.js'
import type { ApiContext } from './context.js'

/** GET /v1/events/:event_id/response: an event of another owner's app is "not found". */
export function pollResponse(request: RouteRequest, { sim, key }: ApiContext): RouteResult {
  const eventId = request.params.event_id as string
  const event = sim.state.events.get(eventId)
  if (!event || sim.state.apps.get(event.app_id)?.owner !== key.owner) {
    throw notFound(`Event "${eventId}" was not found.`)
  }
  const notification = sim.state.notifications.get(eventId)
  const body = {
    event_id: eventId,
    status: notification?.status ?? 'pending',
    response: notification?.response ?? null,
    responded_at: notification?.responded_at ?? null,
  } as EventResponseRecord
  return { status: 200, body }
}
