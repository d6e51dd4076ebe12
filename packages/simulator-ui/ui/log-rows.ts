import type { Vibe } from '@ringhook/simulator/control-api'
import { duration } from './format.js'
import type { KnownDelivery, Model } from './model.js'

export type Tone = 'ok' | 'bad' | 'wait' | 'quiet'

/** One line of the delivery log: a webhook attempt, a delivery not yet tried, or a gesture or call that sent none. */
export interface LogRow {
  key: string
  at: string
  event: string
  target: string
  attempt: string
  status: string
  latency: string
  outcome: string
  tone: Tone
  next: string
  reply: string | null
  note: string | null
  /** The fault the simulator injected into this try, labelled on the row. */
  fault: string | null
  /** The captured record a delivery loaded from a capture sends (`capture_id`), labelled on its rows. */
  captured: string | null
  /**
   * The delivery a Resend button sends again: on the last row of a failed delivery, and of a settled
   * one loaded from a capture (sent again as often as you like).
   */
  resend: string | null
  /** Whether that delivery failed: what "Resend every failed delivery" sends again. */
  failed: boolean
}

const LIMIT = 200

/** The log's rows, newest first. */
export function logRows(model: Model): LogRow[] {
  const names = nameLookup(model)
  const rejected = new Map(
    model.vibes.filter((vibe) => vibe.delivery_id && vibe.status !== 'delivered').map((v) => [v.delivery_id, v]),
  )
  const rows = [
    ...Object.values(model.deliveries).flatMap((delivery) =>
      deliveryRows(delivery, names(delivery.app_id, delivery.user_app_id), rejected.get(delivery.id)),
    ),
    ...model.gestures.map(
      (gesture): LogRow => ({
        ...blank(`gesture-${gesture.seq}`, gesture.at, 'gesture'),
        target: names(gesture.app_id, gesture.user_app_id),
        outcome: 'not forwarded',
        note: `${gesture.gesture_type}: gesture forwarding is off for this install, so no webhook was sent.`,
      }),
    ),
    ...model.refused.map(
      (request): LogRow => ({
        ...blank(`request-${request.seq}`, request.at, `${request.method} ${request.path}`),
        target: 'service API',
        status: String(request.status),
        outcome: request.error_code ?? 'error',
        tone: 'bad',
      }),
    ),
  ]
  return rows.sort((a, b) => b.at.localeCompare(a.at) || b.key.localeCompare(a.key)).slice(0, LIMIT)
}

function deliveryRows(delivery: KnownDelivery, target: string, vibe: Vibe | undefined): LogRow[] {
  const base = { ...blank(delivery.id, delivery.created_at, delivery.event), target, captured: delivery.capture_id }
  if (delivery.attempts.length === 0) {
    const skipped = delivery.status === 'skipped'
    return [
      {
        ...base,
        outcome: skipped ? 'skipped' : delivery.status,
        tone: skipped ? 'quiet' : 'wait',
        note: skipped && delivery.skipped_reason === 'no_webhook_url' ? 'The app has no webhook URL.' : null,
      },
    ]
  }
  const last = delivery.attempts.length
  const retries = delivery.retry_delays_ms.length
  const failed = delivery.status === 'failed'
  const resendable = failed || (delivery.capture_id !== null && delivery.status === 'delivered')
  const faults = delivery.faults.filter((fault) => fault.attempt === null).map((fault) => fault.fault)
  return delivery.attempts.map((attempt, index) => {
    const final = index === last - 1
    const ok = attempt.outcome === 'ok'
    return {
      ...base,
      at: attempt.at,
      attempt: retries > 0 ? `${attempt.attempt} of ${retries + 1}` : String(attempt.attempt),
      status: attempt.status === null ? '—' : String(attempt.status),
      latency: duration(attempt.latency_ms),
      outcome: ok ? 'ok' : attempt.outcome.replace('_', ' '),
      tone: ok ? 'ok' : attempt.next_retry_in_ms === null ? 'bad' : 'wait',
      next: nextRetry(attempt.next_retry_in_ms, delivery.retry_delays_ms),
      key: `${delivery.id}-${index}`,
      reply: attempt.reply ?? attempt.error,
      note: notes(
        attempt.note,
        final && failed ? `Failed after ${attempt.attempt} attempts: the service gave up.` : null,
        final && vibe ? `Reply vibe ${vibe.status.replace('_', ' ')}: ${vibe.rule ?? 'no reason given'}` : null,
      ),
      fault: [...(index === 0 ? faults : []), ...(attempt.fault ? [attempt.fault] : [])].join(', ') || null,
      resend: final && resendable ? delivery.id : null,
      failed: final && failed,
    }
  })
}

const notes = (...lines: Array<string | null | undefined>) => lines.filter(Boolean).join(' ') || null

function nextRetry(inMs: number | null, schedule: number[]): string {
  if (inMs === null) return '—'
  const plan = schedule.length > 0 ? ` (schedule ${schedule.map(duration).join(', ')})` : ''
  return `in ${duration(inMs)}${plan}`
}

function blank(key: string, at: string, event: string): LogRow {
  return {
    key,
    at,
    event,
    target: '',
    attempt: '—',
    status: '—',
    latency: '—',
    outcome: '',
    tone: 'quiet',
    next: '—',
    reply: null,
    note: null,
    fault: null,
    captured: null,
    resend: null,
    failed: false,
  }
}

function nameLookup(model: Model): (appId: string, userAppId: string) => string {
  const apps = new Map(model.snapshot?.apps.map((app) => [app.app_id, app.name]))
  const users = new Map(model.snapshot?.users.map((user) => [user.id, user.name]))
  const owners = new Map(model.snapshot?.installs.map((install) => [install.user_app_id, install.user_id]))
  return (appId, userAppId) => {
    const owner = owners.get(userAppId)
    const user = owner ? (users.get(owner) ?? owner) : userAppId.slice(0, 8)
    return `${apps.get(appId) ?? appId} · ${user}`
  }
}
