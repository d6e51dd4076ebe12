// The checks steps share: what the spec says a delivery, a gesture or an answer must look like.
import type { Delivery as SimDelivery } from '@ringhook/simulator/control-api'
import { need, type Session } from './session.js'

/** The delivery as the simulator holds it now (settled, with all attempts). */
const settled = ({ stage }: Session, delivery: SimDelivery) =>
  stage.sim.log.deliveries().find((d) => d.id === delivery.id) ?? delivery

/** How many times the app ran its handlers for an event (of one install, or with one detail). */
export const runs = ({ stage }: Session, event: string, match: { userAppId?: string; detail?: string } = {}) =>
  stage.handled.filter(
    (h) =>
      h.event === event &&
      (match.userAppId === undefined || h.user_app_id === match.userAppId) &&
      (match.detail === undefined || h.detail === match.detail),
  ).length

/** Each delivery arrived in the given order, at the first attempt, answered 2xx, and was handled once. */
export function deliveredOnce(session: Session, deliveries: SimDelivery[], events: string[]): void {
  const { timeline } = session
  const sent = deliveries.map((d) => d.event)
  timeline.check(
    sent.join() === events.join(),
    `webhooks in the spec's order: ${events.join(', ')}`,
    `sent ${sent.join(', ') || 'none'}`,
  )
  for (const delivery of deliveries.map((d) => settled(session, d))) {
    const [first] = delivery.attempts
    const ok = delivery.status === 'delivered' && delivery.attempts.length === 1 && first?.outcome === 'ok'
    const handled = runs(session, delivery.event, { userAppId: delivery.user_app_id })
    timeline.check(
      ok && handled === 1,
      `${delivery.event} delivered at the first attempt (${first?.status ?? 'no answer'}) and handled by the app`,
      `${delivery.status} after ${delivery.attempts.length} attempt(s), handled ${handled} time(s)`,
    )
  }
}

export async function gesture(session: Session, gestureType: string): Promise<SimDelivery | null> {
  const { sim } = session.stage
  const { delivery, vibe: felt } = await sim.gesture(need(session.control, 'The control install'), gestureType, {
    wait: true,
  })
  const expected = `Got your ${gestureType}`
  session.timeline.check(
    felt?.status === 'delivered' && felt.message === expected,
    `the ring played the app's reply: tap·pulse "${expected}"`,
    felt ? `${felt.status} "${felt.message}"` : 'no vibe',
  )
  return delivery
}

/** How the answer reached the app, and whether it was handled exactly once across channels. */
export function handledOnce(
  session: Session,
  eventId: string,
  channel: string,
  alreadyHandled: boolean | undefined,
): void {
  const byWebhook = runs(session, 'notification.responded', { detail: eventId })
  const byResult = alreadyHandled === false ? 1 : 0
  const how =
    byResult === 1
      ? `by the ${channel} result; the webhook's handler did not run again`
      : `by the webhook's handler; the ${channel} result said alreadyHandled`
  session.timeline.check(
    byWebhook + byResult === 1,
    `the answer was handled once, ${how}`,
    `handler ran ${byWebhook} time(s), ${channel} result alreadyHandled: ${alreadyHandled}`,
  )
}

/** The notification.responded webhook for one event. */
export const responseDelivery = ({ stage }: Session, eventId: string) =>
  stage.sim.log
    .deliveries()
    .find(
      (d) =>
        d.event === 'notification.responded' && 'event_id' in d.payload.data && d.payload.data.event_id === eventId,
    )
