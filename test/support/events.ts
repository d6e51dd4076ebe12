import { signWebhook } from '@ringhook/core/signature'

/** Seconds of the fixed clock the conformance receivers run on. */
export const NOW_S = 1_790_000_000
export const NOW_MS = NOW_S * 1000
export const SECRET = 'whsec_conformance_secret'

let counter = 0

/** A valid gesture payload; each call is a distinct delivery unless `timestamp` is given. */
export function gesture(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++
  return {
    event: 'gesture',
    gesture_type: 'double_tap',
    user_app_id: '6f1c1f5e-9a3b-4c55-8f0e-2c3d4e5f6a7b',
    app_id: 'app_demo',
    timestamp: new Date(NOW_MS + counter).toISOString(),
    data: {},
    ...overrides,
  }
}

/** A valid lifecycle event payload. */
export function lifecycle(event: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...gesture(overrides), event, gesture_type: undefined, ...overrides }
}

/** A valid notification.responded payload. */
export function responded(eventId: string, response = 'yes'): Record<string, unknown> {
  return { ...lifecycle('notification.responded'), data: { event_id: eventId, response } }
}

export interface Delivery {
  method?: string
  body: string
  headers: Record<string, string>
}

/** Signs a body (object or exact text) the way the service does. */
export async function signed(
  payload: Record<string, unknown> | string,
  options: { secret?: string; timestamp?: number } = {},
): Promise<Delivery> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const { headers } = await signWebhook({
    secret: options.secret ?? SECRET,
    body,
    timestamp: options.timestamp ?? NOW_S,
  })
  return { body, headers }
}

/** Posts a delivery with fetch and returns status, parsed body and headers. */
export async function post(url: string, delivery: Delivery) {
  const response = await fetch(url, {
    method: delivery.method ?? 'POST',
    headers: delivery.headers,
    ...(delivery.method === 'GET' || delivery.method === 'HEAD' ? {} : { body: delivery.body }),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = text
  }
  return { status: response.status, body: json as Record<string, unknown> | undefined, headers: response.headers }
}
