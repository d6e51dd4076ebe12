import { createHmac } from 'node:crypto'

/** Secrets for each signing scheme; the bench never reads real ones. */
export const SECRET = 'bench-webhook-secret-0123456789abcdef'
export const STRIPE_SECRET = 'whsec_bench0123456789abcdef0123456789'
const STANDARD_KEY = Buffer.from('bench-standardwebhooks-key-0123456789')
export const STANDARD_SECRET = `whsec_${STANDARD_KEY.toString('base64')}`

const nowSeconds = (): number => Math.floor(Date.now() / 1000)

// Distinct across the whole process, so no two requests of one bench run share a dedup key.
let sequence = 0

/**
 * A `notification.responded` delivery of about 250 bytes with a fresh `event_id`, the body every
 * contender verifies. An emoji response keeps a multi-byte character in the bytes being signed.
 */
export function eventBody(): Buffer {
  sequence += 1
  const id = `evt_${process.pid.toString(36)}_${sequence.toString(36).padStart(8, '0')}`
  return Buffer.from(
    JSON.stringify({
      event: 'notification.responded',
      user_app_id: '3f0c6a52-9d4e-4b7e-8a51-2c7d9e0f1a3b',
      external_user_id: 'user_829104',
      app_id: 'app_8kq2m4x7',
      timestamp: new Date().toISOString(),
      data: { event_id: id, response: 'emoji:👍' },
    }),
  )
}

/**
 * A `gesture` delivery (the service waits for its reply, a vibe) with a timestamp distinct across
 * the process, so it is never a duplicate: what the cold-start and bundle apps answer.
 */
export function gestureBody(): Buffer {
  sequence += 1
  return Buffer.from(
    JSON.stringify({
      event: 'gesture',
      gesture_type: 'double_tap',
      user_app_id: '3f0c6a52-9d4e-4b7e-8a51-2c7d9e0f1a3b',
      app_id: 'app_8kq2m4x7',
      timestamp: new Date(Date.now() + sequence).toISOString(),
      data: {},
    }),
  )
}

const hmacHex = (secret: string | Buffer, ...parts: (string | Buffer)[]): string => {
  const hmac = createHmac('sha256', secret)
  for (const part of parts) hmac.update(part)
  return hmac.digest('hex')
}

/** Headers the ring service sends: HMAC-SHA256 over `${timestamp}.${body}`. */
export function ringHeaders(body: Buffer, timestamp = nowSeconds()): Record<string, string> {
  const ts = String(timestamp)
  return {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'x-service-signature': `sha256=${hmacHex(SECRET, `${ts}.`, body)}`,
    'x-service-timestamp': ts,
  }
}

/** GitHub's scheme as @octokit/webhooks checks it: HMAC-SHA256 over the body, no timestamp. */
export function githubHeaders(body: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'x-github-event': 'ping',
    'x-github-delivery': `d-${sequence}`,
    'x-hub-signature-256': `sha256=${hmacHex(SECRET, body)}`,
  }
}

/** Standard Webhooks: base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`. */
export function standardHeaders(body: Buffer, timestamp = nowSeconds()): Record<string, string> {
  const id = `msg_${sequence}`
  const signature = createHmac('sha256', STANDARD_KEY).update(`${id}.${timestamp}.`).update(body).digest('base64')
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` }
}

/** Stripe's `Stripe-Signature` header: `t=<ts>,v1=<hex HMAC over "${ts}.${body}">`. */
export function stripeHeader(body: Buffer, timestamp = nowSeconds()): string {
  return `t=${timestamp},v1=${hmacHex(STRIPE_SECRET, `${timestamp}.`, body)}`
}
